// Bundles one of the project's TypeScript entry points with esbuild into dist/, for the launchers that run it without a loader (scripts/start.mjs, scripts/build-bible.mjs).
//
// Plain JavaScript: the launchers import it before anything can load TypeScript.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { externalPackagesExcept, fileHash, inputHashes, sameInputs, writeAtomically } from '../../build/bundle-inputs.mjs';
import { lineLevelSourceMap } from './line-source-map.mjs';

/** The checkout: scripts/lib/../.. */
export const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Bundles `entry` (a path from the checkout) as an ES module into `outDir` with a linked source map (one mapping per line),
 * and returns the module's path. `define` replaces identifiers in the sources (as esbuild's own option).
 * The file is written under a name of this process, then renamed: another launcher writing at the same
 * time cannot tear it.
 *
 * @example const file = await bundleEntry(esbuild, { entry: 'scripts/build-bible.ts', outDir: 'dist/build-bible' }); await import(pathToFileURL(file).href);
 */
export async function bundleEntry(esbuild, { entry, outDir, define, inline }) {
  return (await bundleWithInputs(esbuild, { entry, outDir, define, inline })).moduleFile;
}

/**
 * `bundleEntry`, made only when the bundle in `outDir` is not one of the same inputs: its files (the
 * project's and those of the `inline` packages) are hashed against the ones recorded beside it when it
 * was made, with esbuild's version and the options; a bundle made from other bytes is made anew, so it
 * is never stale. `loadEsbuild` is called only then (the esbuild service starts a child process).
 *
 * Why for the Bible build: making its bundle took 0.2-0.3 s of the build's start, when nothing else runs;
 * checking the hashes of its ~300 input files takes about 30 ms.
 *
 * @example const file = await cachedBundleEntry(loadEsbuild, { entry: 'scripts/build-bible.ts', outDir: 'dist/build-bible', inline: ['@sinclair/typebox'] });
 */
export async function cachedBundleEntry(loadEsbuild, { entry, outDir, define, inline }) {
  const manifestFile = path.join(root, outDir, `${path.basename(entry, '.ts')}.inputs.json`);
  const key = { esbuild: undefined, entry, define: define ?? null, inline: inline ?? [] };
  try {
    const recorded = JSON.parse(readFileSync(manifestFile, 'utf8'));
    // A checkout copied with its dist/ (cp -al) finds the manifest of the checkout it was copied from, whose
    // bundle and inputs are that checkout's files: it must make its own, or it runs the other one's code.
    const same =
      recorded.moduleFile === moduleFileOf(entry, outDir) &&
      JSON.stringify(recorded.key) === JSON.stringify({ ...key, esbuild: recorded.key.esbuild }) &&
      sameInputs(recorded.inputs) &&
      fileHash(recorded.moduleFile) === recorded.moduleHash;
    if (same) return recorded.moduleFile;
  } catch {
    // No bundle yet, or one this check cannot read: made anew below.
  }
  const esbuild = loadEsbuild();
  try {
    const { moduleFile, inputs } = await bundleWithInputs(esbuild, { entry, outDir, define, inline });
    const manifest = { key: { ...key, esbuild: esbuild.version }, inputs, moduleFile, moduleHash: fileHash(moduleFile) };
    writeAtomically(manifestFile, JSON.stringify(manifest));
    return moduleFile;
  } finally {
    await esbuild.stop();
  }
}

/** Where the bundle of `entry` goes in this checkout. */
function moduleFileOf(entry, outDir) {
  return path.join(root, outDir, `${path.basename(entry, '.ts')}.mjs`);
}

async function bundleWithInputs(esbuild, { entry, outDir, define, inline }) {
  const options = commonOptions();
  if (inline?.length) {
    delete options.packages;
    options.plugins = [...options.plugins, externalPackagesExcept(inline)];
  }
  const result = await esbuild.build({
    ...options,
    metafile: true,
    entryPoints: [path.join(root, entry)],
    format: 'esm',
    outfile: moduleFileOf(entry, outDir),
    sourcemap: 'linked',
    sourcesContent: false,
    define,
  });
  mkdirSync(path.join(root, outDir), { recursive: true });
  let moduleFile;
  for (const file of result.outputFiles) {
    // A stack trace needs the file and line only: a map of every token costs the server 7.5 MB once parsed (line-source-map.mjs).
    writeAtomically(file.path, file.path.endsWith('.map') ? lineLevelSourceMap(file.text) : file.contents);
    if (file.path.endsWith('.mjs')) moduleFile = file.path;
  }
  return { moduleFile, inputs: inputHashes(result.metafile, root) };
}

/**
 * Node, this major version; packages stay in node_modules (a native addon cannot be bundled), and
 * `import.meta.url` and `import.meta.dirname` keep meaning each source file's own place.
 */
export function commonOptions() {
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
 * (src/resources/resources.ts finds the checkout, the SQLite driver resolves its package, the Bible build
 * bundles its worker threads from their sources) gets its source's path written in instead.
 */
function sourceFilePlaces() {
  return {
    name: 'source-file-places',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        // Not where the words are quoted: build/writers/bundled-worker.ts names import.meta.url in its own esbuild options.
        const place = (name) => new RegExp(`(?<!['"\`])import\\.meta\\.${name}\\b(?!['"\`])`, 'g');
        const contents = text
          .replace(place('url'), JSON.stringify(pathToFileURL(args.path).href))
          .replace(place('dirname'), JSON.stringify(path.dirname(args.path)))
          .replace(place('filename'), JSON.stringify(args.path));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** The esbuild that tsx depends on, so it is there after any `npm install` (esbuild itself is a devDependency). */
export function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild');
}
