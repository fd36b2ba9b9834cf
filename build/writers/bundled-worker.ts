// Starts worker threads on the build's TypeScript files, each bundled by esbuild into one script, so no worker needs tsx's loader.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { build, stop, version } from 'esbuild';
import { externalPackagesExcept, inputHashes, sameInputs, writeAtomically } from '../bundle-inputs.mjs';

/**
 * Why bundles rather than tsx's loader inside the workers: the loader runs its hooks on a thread
 * of its own, so each worker that registers it costs a second isolate (measured here: a worker
 * with tsx registered added 44 MB of RSS, a plain worker 10 MB), a seventh of the build's memory
 * goal. esbuild (the compiler tsx itself runs) makes one CommonJS script of each file and what it
 * imports from the project, in about 0.1 s; packages stay outside and are loaded with `require`
 * from the file's own folder, so native ones (better-sqlite3) load as usual, except the pure
 * JavaScript ones the threads start with (INLINED_PACKAGES): TypeBox as hundreds of CommonJS files
 * took each thread about 0.3 s to load. esbuild's service (a thread and a child process) is started
 * only when a script must be made: each is kept in dist/ with the hashes of the files it was made
 * from, and used again while they are unchanged (bundling took 0.3 s of the build's start).
 *
 * @example const [tree] = await startBundledWorkers([{ file: new URL('./tree-thread.ts', import.meta.url), options: { workerData } }])
 */
export async function startBundledWorkers(threads: readonly { file: URL; options: Omit<WorkerOptions, 'eval'> }[]): Promise<Worker[]> {
  const paths = threads.map(({ file }) => fileURLToPath(file));
  const scripts = await bundle(paths);
  return threads.map(({ options }, index) => new Worker(scripts[index], { ...options, eval: true }));
}

/** Pure-JavaScript packages bundled into the scripts rather than loaded from node_modules at each start (see startBundledWorkers). */
const INLINED_PACKAGES = ['@sinclair/typebox', 'minisearch'];

async function bundle(paths: readonly string[]): Promise<string[]> {
  const cached = paths.map((path) => cachedScript(path));
  if (cached.every((script) => script !== undefined)) return cached;
  try {
    return await Promise.all(paths.map(async (path, index) => cached[index] ?? bundleAndCache(path)));
  } finally {
    await stop();
  }
}

/** Where the scripts are kept between builds: dist/ of the checkout (ignored by git), beside the launcher's own bundle. */
const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'build-bible', 'workers');

/** What a cached script was made from: esbuild's version and every input file's SHA-256 (entry, project files, inlined packages). */
interface CacheManifest {
  esbuild: string;
  inputs: Record<string, string>;
}

/**
 * The script made for `path` by an earlier build, when every file it was made from is unchanged
 * (same bytes, compared by hash, not by date) and esbuild is the same: bundling two workers took
 * 0.3 s of the build's start, when one core waits; checking takes a few milliseconds.
 */
function cachedScript(path: string): string | undefined {
  const { manifest, script } = cachePaths(path);
  try {
    const recorded = JSON.parse(readFileSync(manifest, 'utf8')) as CacheManifest;
    if (recorded.esbuild !== version) return undefined;
    if (!sameInputs(recorded.inputs)) return undefined;
    return readFileSync(script, 'utf8');
  } catch {
    return undefined;
  }
}

async function bundleAndCache(path: string): Promise<string> {
  const result = await build({
    entryPoints: [path],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    plugins: [externalPackagesExcept(INLINED_PACKAGES)],
    // Modules that find packages from their own place (createRequire(import.meta.url)) find them from the entry's folder.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(path).href) },
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error(`esbuild produced nothing for ${path}`);
  // An evaluated worker script gets Node's own `require`; the bundle's packages are looked up from the entry's folder instead.
  const requireFrom = JSON.stringify(join(dirname(path), 'bundle.cjs'));
  const script = `(function (require) {\n${code}\n})(require('node:module').createRequire(${requireFrom}));`;
  const inputs = inputHashes(result.metafile, process.cwd());
  const files = cachePaths(path);
  mkdirSync(CACHE_DIR, { recursive: true });
  // Script first, manifest last, each renamed into place: a reader finds a manifest only beside its script (or a newer one, which its hashes then refuse).
  writeAtomically(files.script, script);
  writeAtomically(files.manifest, JSON.stringify({ esbuild: version, inputs } satisfies CacheManifest));
  return script;
}

function cachePaths(path: string): { script: string; manifest: string } {
  const name = createHash('sha256').update(path).digest('hex').slice(0, 16);
  return { script: join(CACHE_DIR, `${name}.cjs`), manifest: join(CACHE_DIR, `${name}.json`) };
}
