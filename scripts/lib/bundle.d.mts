// Types of what the tests use of bundle.mjs (plain JavaScript, run before anything can load TypeScript).
import type * as Esbuild from 'esbuild';

export declare const root: string;
export declare function loadEsbuild(): typeof Esbuild;
export declare function bundleEntry(
  esbuild: typeof Esbuild,
  options: { entry: string; outDir: string; define?: Record<string, string>; inline?: string[] },
): Promise<string>;
export declare function cachedBundleEntry(
  loadEsbuild: () => typeof Esbuild,
  options: { entry: string; outDir: string; define?: Record<string, string>; inline?: string[] },
): Promise<string>;
