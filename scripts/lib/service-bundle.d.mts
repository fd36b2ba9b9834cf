// Types of service-bundle.mjs (plain JavaScript, run before anything can load TypeScript), for its tests.
import type * as Esbuild from 'esbuild';

export declare const SERVICE_EXTERNAL_PACKAGES: readonly string[];
export declare function bundleService(loadEsbuild: () => typeof Esbuild, outDir?: string): Promise<string>;
export declare function recordedServiceBundle(outDir?: string): string | undefined;
