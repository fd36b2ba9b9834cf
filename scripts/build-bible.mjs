// `npm run build:bible`: bundles scripts/build-bible.ts with esbuild into dist/build-bible/, then runs that bundle in this very process.
//
// Plain JavaScript, run with no loader: under tsx's loader the build spent 1.2 s and 120 MB of resident memory
// (its loader thread and its transform of every file) before reading a source, two fifths of the memory goal
// (measured on the two-core machine, Node 20); bundled, 0.3 s. The bundle is made at every run (never stale);
// esbuild comes with tsx. The build's two worker threads are bundled the same way (build/writers/bundled-worker.ts).
import { pathToFileURL } from 'node:url';
import { bundleEntry, loadEsbuild } from './lib/bundle.mjs';

const esbuild = loadEsbuild();
let buildFile;
try {
  buildFile = await bundleEntry(esbuild, { entry: 'scripts/build-bible.ts', outDir: 'dist/build-bible' });
} finally {
  // esbuild answers from a child process of its own: end it before the build starts its own bundling.
  await esbuild.stop();
}
// Stack traces name the TypeScript files and lines, as they did under tsx.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(buildFile).href);
