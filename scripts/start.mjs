// `npm start`: bundles the service's TypeScript with esbuild into dist/start/, then runs that bundle in this very process.
//
// Plain JavaScript, the one script Node runs with no loader: running the sources through tsx kept tsx's
// loader (a thread with a V8 heap of its own) and its transform of every file in the server's memory for
// its whole life (163 MB resident at start; bundled, 115 MB). The bundle takes about 0.3 s to make, every start, so it
// is never stale; esbuild comes with tsx, a dependency. One process (no launcher child between npm and
// the server), so the SIGTERM and SIGINT npm forwards reach the server itself. package.json gives Node
// --max-semi-space-size=8: V8's default young generation grew to 32 MB, 16 MB collects as cheaply
// (README, Memory); the bench runs this same command line.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The checkout: scripts/.. */
const root = path.resolve(import.meta.dirname, '..');
/** Where the bundle is written (git-ignored), with its source map. */
const outDir = path.join(root, 'dist', 'start');

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
 * takes it through PREBUNDLED_SEARCH_WORKER), then src/server.ts with it; returns the service's file.
 */
async function bundleService() {
  const worker = await esbuild.build({
    ...commonOptions(),
    entryPoints: [path.join(root, 'src/bible/search-worker.ts')],
    format: 'cjs',
    sourcemap: false,
  });
  const workerCode = worker.outputFiles[0].text;
  const service = await esbuild.build({
    ...commonOptions(),
    entryPoints: [path.join(root, 'src/server.ts')],
    format: 'esm',
    outfile: path.join(outDir, 'server.mjs'),
    sourcemap: 'linked',
    sourcesContent: false,
    define: { PREBUNDLED_SEARCH_WORKER: JSON.stringify(workerCode) },
  });
  mkdirSync(outDir, { recursive: true });
  // Written under a name of this process, then renamed: another start writing at the same time cannot tear the file.
  let serviceFile;
  for (const file of service.outputFiles) {
    writeAtomically(file.path, file.contents);
    if (file.path.endsWith('.mjs')) serviceFile = file.path;
  }
  return serviceFile;
}

/**
 * Node, this major version, ESM-compatible output; packages stay in node_modules (a native addon cannot be
 * bundled), and `import.meta.url` and `import.meta.dirname` keep meaning each source file's own place.
 */
function commonOptions() {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [sourceFilePlaces()],
  };
}

/**
 * In a bundle, `import.meta` is the bundle's own: a file that finds its neighbours from its own place
 * (src/resources/resources.ts finds the checkout, the SQLite driver resolves its package) gets its
 * source's path written in instead. The worker bundle, CommonJS, needs the same.
 */
function sourceFilePlaces() {
  return {
    name: 'source-file-places',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const contents = text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: 'ts' };
      });
    },
  };
}

function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** The esbuild that tsx depends on, so it is there after any `npm install` (esbuild itself is a devDependency). */
function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild');
}
