// `npm run build:bible`: bundles scripts/build-bible.ts with esbuild into dist/build-bible/, then runs that bundle in this very process.
//
// Plain JavaScript, run with no loader: under tsx's loader the build spent 1.2 s and 120 MB of resident memory
// (its loader thread and its transform of every file) before reading a source, two fifths of the memory goal
// (measured on the two-core machine, Node 20); bundled, 0.3 s. The bundle is made again whenever a file it is made from changed;
// esbuild comes with tsx. The build's two worker threads are bundled the same way (build/writers/bundled-worker.ts).
// package.json runs it with --single-threaded-gc: three busy threads on two cores leave V8's helper threads (parallel
// scavenges, concurrent marking, about 3 s of CPU in a build) no core of their own; measured, two A/B runs of three
// builds each (load 3-6): wall time 3-5% less, user CPU 3% less, the same peak.
// And with MALLOC_TOP_PAD_=67108864 (read by the C library at the process's start, so set by the script): each time
// glibc grows a heap or gives its top back, it keeps 64 MB more, so the brotli encoders (13 MB each), the large files
// read back and the Buffers of every thread come from pages already touched rather than from fresh ones the kernel
// must fault in and zero. Measured (farm-bench, ten pairs of full builds): page faults 106,000 to 83,000 (16 MB:
// 108,000; 32 MB: 92,000; 128 MB: 84,000), CPU 0.93 of the build's without, system time 2.26 to 1.95 s, wall
// time 0.94, peak of the process 253 to 262 MB.
// And with --max-inlined-bytecode-size-cumulative=300 (V8's default is 920): TurboFan compiling on V8's helper threads
// took 1.9 s of the build's CPU (per-thread accounting; --trace-opt lists 402 compilations, functions with long loops
// recompiled up to ten times, on stack replacement), a sixth of it, on cores the three busy threads need. Inlining
// less makes each compilation smaller; the code it makes runs these few seconds about as fast. Measured (farm-bench,
// pairs of full builds, three sessions of 4, 8 and 10 pairs): CPU 0.94, 0.97 and 0.96 of the build's without, wall
// 0.92, 0.98 and 0.95. Not inlining at all gave 0.93 and 0.98; 150 gave 0.98, 500 gave 1.02. Node 20 and 24 take it.
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
