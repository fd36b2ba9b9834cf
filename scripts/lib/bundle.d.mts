// Types of what the tests use of bundle.mjs (plain JavaScript, run before anything can load TypeScript).
import type * as Esbuild from 'esbuild';

export declare const root: string;
export declare function loadEsbuild(): typeof Esbuild;
export interface BundleOptions {
  entry: string;
  outDir: string;
  define?: Record<string, string>;
  /** Packages bundled in; the others stay in node_modules. */
  inline?: readonly string[];
  /** Packages that stay in node_modules; the others are bundled in. */
  external?: readonly string[];
  /** 'cjs': a CommonJS script (.cjs) without a source map. */
  format?: 'esm' | 'cjs';
}
export declare function bundleEntry(esbuild: typeof Esbuild, options: BundleOptions): Promise<string>;
export declare function cachedBundleEntry(loadEsbuild: () => typeof Esbuild, options: BundleOptions): Promise<string>;
export declare function recordedBundle(options: BundleOptions): string | undefined;
export declare function asciiOnly(code: string): string;
