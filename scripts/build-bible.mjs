// `npm run build:bible`: bundles scripts/build-bible.ts with esbuild into dist/build-bible/, then runs that bundle in this very process.
//
// Plain JavaScript, run with no loader: under tsx's loader the build spent 1.2 s and 120 MB of resident memory
// (its loader thread and its transform of every file) before reading a source, two fifths of the memory goal
// (measured on the two-core machine, Node 20); bundled, 0.3 s. The bundle is made again whenever a file it is made from changed;
// esbuild comes with tsx. The build's two worker threads are bundled the same way (build/writers/bundled-worker.ts).
// package.json runs it with --single-threaded-gc: three busy threads on two cores leave V8's helper threads (parallel
// scavenges, concurrent marking, about 3 s of CPU in a build) no core of their own; measured, two A/B runs of three
// builds each (load 3-6): wall time 3-5% less, user CPU 3% less, the same peak.
import { pathToFileURL } from 'node:url';
import { cachedBundleEntry, loadEsbuild } from './lib/bundle.mjs';

// Made only when its sources changed (cachedBundleEntry compares their hashes); esbuild's service, when it runs, is
// stopped before the build starts its own bundling. TypeBox is bundled in: as hundreds of ES modules from
// node_modules it took about 0.3 s of the start to load.
const buildFile = await cachedBundleEntry(loadEsbuild, {
  entry: 'scripts/build-bible.ts',
  outDir: 'dist/build-bible',
  inline: ['@sinclair/typebox'],
});
// Stack traces name the TypeScript files and lines, as they did under tsx.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(buildFile).href);
