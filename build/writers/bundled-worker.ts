// Starts worker threads on the build's TypeScript files, each bundled by esbuild into one script, so no worker needs tsx's loader.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { build, stop } from 'esbuild';

/**
 * Why bundles rather than tsx's loader inside the workers: the loader runs its hooks on a thread
 * of its own, so each worker that registers it costs a second isolate (measured here: a worker
 * with tsx registered added 44 MB of RSS, a plain worker 10 MB), a seventh of the build's memory
 * goal. esbuild (the compiler tsx itself runs) makes one CommonJS script of each file and what it
 * imports from the project, in about 0.1 s; packages stay outside and are loaded with `require`
 * from the file's own folder, so native ones (better-sqlite3) load as usual. esbuild's service
 * (a thread and a child process) is stopped once the scripts are made.
 *
 * @example const [tree] = await startBundledWorkers([{ file: new URL('./tree-thread.ts', import.meta.url), options: { workerData } }])
 */
export async function startBundledWorkers(threads: readonly { file: URL; options: Omit<WorkerOptions, 'eval'> }[]): Promise<Worker[]> {
  const paths = threads.map(({ file }) => fileURLToPath(file));
  const scripts = await bundle(paths);
  return threads.map(({ options }, index) => new Worker(scripts[index], { ...options, eval: true }));
}

async function bundle(paths: readonly string[]): Promise<string[]> {
  try {
    return await Promise.all(
      paths.map(async (path) => {
        const result = await build({
          entryPoints: [path],
          bundle: true,
          platform: 'node',
          format: 'cjs',
          target: `node${process.versions.node.split('.')[0]}`,
          packages: 'external',
          // Modules that find packages from their own place (createRequire(import.meta.url)) find them from the entry's folder.
          define: { 'import.meta.url': JSON.stringify(pathToFileURL(path).href) },
          write: false,
          logLevel: 'silent',
        });
        const code = result.outputFiles[0]?.text;
        if (code === undefined) throw new Error(`esbuild produced nothing for ${path}`);
        // An evaluated worker script gets Node's own `require`; the bundle's packages are looked up from the entry's folder instead.
        const requireFrom = JSON.stringify(join(dirname(path), 'bundle.cjs'));
        return `(function (require) {\n${code}\n})(require('node:module').createRequire(${requireFrom}));`;
      }),
    );
  } finally {
    await stop();
  }
}
