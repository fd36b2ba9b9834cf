// Types of line-source-map.mjs (plain JavaScript, run before anything can load TypeScript), for its tests.
export declare function firstMappingPerLine(mappings: string, isPackage?: (source: number) => boolean): string;
export declare function lineLevelSourceMap(text: string): string;
