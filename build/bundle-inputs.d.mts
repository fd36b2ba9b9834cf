// Types of bundle-inputs.mjs (plain JavaScript, imported by the launchers before anything can load TypeScript).
import type { Metafile, Plugin } from 'esbuild';

export declare function externalPackagesExcept(inlined: readonly string[]): Plugin;
export declare function fileHash(file: string): string;
export declare function inputHashes(metafile: Metafile, base: string): Record<string, string>;
export declare function sameInputs(recorded: Record<string, string>): boolean;
export declare function writeAtomically(file: string, contents: string | Uint8Array): void;
