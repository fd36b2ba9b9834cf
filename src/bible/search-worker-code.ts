// The search worker's code in a checkout: bundled once per process to plain JavaScript, so a worker thread does not load tsx.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

/** What a worker thread evaluates (`new Worker(code, { eval: true })`). */
export interface WorkerCode {
  code: string;
  /** 'bundled': plain CommonJS made by esbuild; 'tsx': a loader that registers tsx in the worker (the fallback). */
  kind: 'bundled' | 'tsx';
}

/**
 * The worker bundled ahead of time by `npm start` (scripts/lib/service-bundle.mjs, which bundles the whole service and
 * writes the worker's CommonJS here with esbuild's `define`); not defined when the sources run through tsx.
 */
declare const PREBUNDLED_SEARCH_WORKER: string | undefined;

let bundled: string | undefined;

/**
 * The worker's code for a checkout. Loading tsx in each worker thread cost about 30 MB of
 * memory per worker (its loader and its own transform of every file); the same files bundled
 * once by the esbuild that tsx itself depends on (so it is there whenever tsx is) cost a few MB,
 * and the bundle is made once per process (about 0.1 s, at the first search). Should esbuild fail,
 * the workers load tsx as before.
 */
export function checkoutWorkerCode(): WorkerCode {
  if (typeof PREBUNDLED_SEARCH_WORKER === 'string') return { code: requiringFromWorkerSource(PREBUNDLED_SEARCH_WORKER), kind: 'bundled' };
  if (bundled === undefined) {
    try {
      bundled = bundleWorker();
    } catch {
      return { code: tsxLoader(), kind: 'tsx' };
    }
  }
  return { code: bundled, kind: 'bundled' };
}

function bundleWorker(): string {
  const entry = fileURLToPath(new URL('./search-worker.ts', import.meta.url));
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = fromTsx('esbuild') as typeof Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    write: false,
    logLevel: 'silent',
    // The SQLite driver (build/contract/sqlite-driver.ts) loads its package with createRequire(import.meta.url):
    // from the worker's own path, the checkout's node_modules resolve as they would for the source file.
    define: { 'import.meta.url': JSON.stringify(new URL('./search-worker.ts', import.meta.url).href) },
    // Packages load from node_modules at run time, as in the main thread (native ones cannot be bundled).
    packages: 'external',
  });
  return requiringFromWorkerSource(result.outputFiles[0]!.text);
}

/** An evaluated worker script has `require`, but one that resolves from the working directory: resolve from the worker's source instead. */
function requiringFromWorkerSource(code: string): string {
  const entry = fileURLToPath(new URL('./search-worker.ts', import.meta.url));
  return `(function (require) {\n${code}\n})(require('node:module').createRequire(${JSON.stringify(entry)}));`;
}

/** Registers tsx in the worker, then imports the worker's TypeScript source. */
function tsxLoader(): string {
  // The ESM entry of tsx's API, resolved from here (the CommonJS one cannot be imported this way).
  const tsxApi = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const entry = new URL('./search-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
}
