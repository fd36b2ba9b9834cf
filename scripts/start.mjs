// `npm start`: bundles the service's TypeScript with esbuild into dist/start/, then runs that bundle in this very process.
//
// Plain JavaScript, the one script Node runs with no loader: running the sources through tsx kept tsx's
// loader (a thread with its own V8 heap) and its transform of every file in the server's memory for
// its whole life (163 MB resident at start; bundled, 115 MB). The bundle is made again whenever a file it is
// made from changed (scripts/lib/service-bundle.mjs: a check of 30-120 ms, about 1.5 s of bundling when
// needed), so it is never stale; esbuild comes with tsx, a dependency. The bundling runs in a short process of
// its own (make-service-bundle.mjs): in this one, it set the server's peak memory. One process stays (no
// launcher between npm and the server), so the SIGTERM and SIGINT npm forwards reach the server itself.
// package.json gives Node --max-semi-space-size=8: V8's default young generation grew to 32 MB, 16 MB
// collects as cheaply (docs/memory.md); the bench runs this same command line. It also sets
// MALLOC_ARENA_MAX=2 before `exec`: glibc reads it only when a process starts, so it cannot be set from here; and
// MALLOC_MMAP_THRESHOLD_=262144: blocks of 256 kB and more are mapped on their own and unmapped when freed. By
// default glibc raises that threshold to the size of the first such block freed, so compiling the bundle at start
// (V8's parser and compiler zones, freed at once) left glibc's main heap 8 MB larger for the process's life
// (compiling dist/start/server.mjs alone: 10.6 MB resident in it, 3.5 with the fixed threshold). 32 kB kept 2 MB
// more out but cost searches 15% more CPU (a mapping and unmapping per answer); docs/memory.md, round 7.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { recordedServiceBundle } from './lib/service-bundle.mjs';

// The service's own default is no demo data (a production start publishes nothing made up); a checkout wants it.
process.env.DEMO_DATA ??= 'true';

const serviceFile = recordedServiceBundle() ?? bundleInAProcessOfItsOwn();
// Stack traces name the TypeScript files and lines, as they did under tsx.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serviceFile).href);

/** Runs make-service-bundle.mjs and returns the file it printed; its messages go to this process's stderr. */
function bundleInAProcessOfItsOwn() {
  const script = fileURLToPath(new URL('./lib/make-service-bundle.mjs', import.meta.url));
  return execFileSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}
