// The service's bundle for `npm start` (scripts/start.mjs): src/server.ts with the search worker and the pure-JavaScript packages inside.
//
// Plain JavaScript: start.mjs imports it before anything can load TypeScript.
import { readFileSync } from 'node:fs';
import { cachedBundleEntry, recordedBundle } from './bundle.mjs';

/**
 * The packages that stay in node_modules; every other one is bundled in. Why bundled: V8 keeps the source
 * of every script it loaded for the process's life, and the service loaded some 700 files of packages
 * (zod twice over, the MCP SDK, ajv, ical.js, TypeBox...) with their comments and indentation: 4.7 MB of
 * its live heap (docs/memory.md, round 6). These stay out:
 * - native addons: better-sqlite3 (and its Node 22+ build, better-sqlite3-napi);
 * - packages imported with `import()` so that an instance that does not use them never loads them
 *   (test/db/packages-loaded-on-sqlite.test.ts): bundled in, their code would be in the one script,
 *   loaded at start (esbuild's code splitting is off);
 * - iconv-lite (body-parser's): it requires each encoding's table only when asked for one; bundled, all
 *   of them (0.5 MB) would be in the script;
 * - mime-db (mime-types'): a JSON file, whose text Node drops once parsed; bundled, it would be 150 kB of
 *   the script's kept source as well as the object.
 * A package left out is required from dist/start/, which resolves to the top of node_modules: one that
 * is installed only nested under another package would not be found.
 */
export const SERVICE_EXTERNAL_PACKAGES = [
  'better-sqlite3',
  'better-sqlite3-napi',
  'pg',
  'redis',
  'rate-limit-redis',
  'nodemailer',
  'openid-client',
  'iconv-lite',
  'mime-db',
];

/**
 * Bundles the search worker first (a worker thread evaluates it as a string: src/bible/search-worker-code.ts
 * takes it through PREBUNDLED_SEARCH_WORKER), then src/server.ts with it into `outDir`; returns the service's
 * file. Each is made only when a file it is made from changed (cachedBundleEntry).
 *
 * @example const file = await bundleService(loadEsbuild); await import(pathToFileURL(file).href);
 */
export async function bundleService(loadEsbuild, outDir = 'dist/start') {
  const workerFile = await cachedBundleEntry(loadEsbuild, workerOptions(outDir));
  return cachedBundleEntry(loadEsbuild, serviceOptions(outDir, workerFile));
}

/**
 * The service's file when its bundle and the worker's are those `bundleService` would make (a check of the
 * hashes of some 900 files, about 30-120 ms, with no esbuild), or undefined.
 *
 * @example const file = recordedServiceBundle() ?? bundleElsewhere();
 */
export function recordedServiceBundle(outDir = 'dist/start') {
  const workerFile = recordedBundle(workerOptions(outDir));
  return workerFile && recordedBundle(serviceOptions(outDir, workerFile));
}

function workerOptions(outDir) {
  return { entry: 'src/bible/search-worker.ts', outDir, format: 'cjs', external: SERVICE_EXTERNAL_PACKAGES };
}

function serviceOptions(outDir, workerFile) {
  return {
    entry: 'src/server.ts',
    outDir,
    define: { PREBUNDLED_SEARCH_WORKER: JSON.stringify(readFileSync(workerFile, 'utf8')) },
    external: SERVICE_EXTERNAL_PACKAGES,
  };
}
