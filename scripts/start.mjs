// `npm start`: bundles the service's TypeScript with esbuild into dist/start/, then runs that bundle in this very process.
//
// Plain JavaScript, the one script Node runs with no loader: running the sources through tsx kept tsx's
// loader (a thread with a V8 heap of its own) and its transform of every file in the server's memory for
// its whole life (163 MB resident at start; bundled, 115 MB). The bundle takes about 0.3 s to make, every start, so it
// is never stale; esbuild comes with tsx, a dependency. One process (no launcher child between npm and
// the server), so the SIGTERM and SIGINT npm forwards reach the server itself. package.json gives Node
// --max-semi-space-size=8: V8's default young generation grew to 32 MB, 16 MB collects as cheaply
// (docs/memory.md); the bench runs this same command line. It also sets MALLOC_ARENA_MAX=2 before `exec`:
// glibc reads it only when a process starts, so it cannot be set from here (docs/memory.md).
import { pathToFileURL } from 'node:url';
import { bundleEntry, commonOptions, loadEsbuild, root } from './lib/bundle.mjs';

// The service's own default is no demo data (a production start publishes nothing made up); a checkout wants it.
process.env.DEMO_DATA ??= 'true';

const esbuild = loadEsbuild();
let serviceFile;
try {
  serviceFile = await bundleService();
} finally {
  // esbuild answers from a child process of its own: end it before the server starts.
  await esbuild.stop();
}
// Stack traces name the TypeScript files and lines, as they did under tsx.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serviceFile).href);

/**
 * Bundles the search worker first (a worker thread evaluates it as a string: src/bible/search-worker-code.ts
 * takes it through PREBUNDLED_SEARCH_WORKER), then src/server.ts with it into dist/start/; returns the service's file.
 */
async function bundleService() {
  const worker = await esbuild.build({
    ...commonOptions(),
    entryPoints: [`${root}/src/bible/search-worker.ts`],
    format: 'cjs',
    sourcemap: false,
  });
  const workerCode = worker.outputFiles[0].text;
  return bundleEntry(esbuild, {
    entry: 'src/server.ts',
    outDir: 'dist/start',
    define: { PREBUNDLED_SEARCH_WORKER: JSON.stringify(workerCode) },
  });
}
