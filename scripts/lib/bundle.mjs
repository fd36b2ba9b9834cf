// Bundles one of the project's TypeScript entry points with esbuild into dist/, for the launchers that run it without a loader (scripts/start.mjs, scripts/build-bible.mjs).
//
// Plain JavaScript: the launchers import it before anything can load TypeScript.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { externalPackagesExcept, fileHash, inputHashes, sameInputs, writeAtomically } from '../../build/bundle-inputs.mjs';
import { lineLevelSourceMap } from './line-source-map.mjs';

/** The files that make bundles: a bundle made by other code than this is made anew (cachedBundleEntry). */
const MAKERS = [
  import.meta.filename,
  path.join(import.meta.dirname, 'line-source-map.mjs'),
  path.join(import.meta.dirname, '../../build/bundle-inputs.mjs'),
];

/**
 * An ES module bundle's first line when packages are bundled in: esbuild turns a CommonJS package's
 * `require('node:events')` into a `__require` that calls the `require` in scope, and an ES module has none.
 */
const REQUIRE_BANNER =
  "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);";

/** The checkout: scripts/lib/../.. */
export const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Bundles `entry` (a path from the checkout) as an ES module into `outDir` with a linked source map (one mapping per
 * source line), and returns the module's path. `define` replaces identifiers in the sources (as esbuild's own option).
 * Packages stay in node_modules, but for those `inline` names; or, with `external`, all are bundled in but those
 * it names. `format: 'cjs'` makes a CommonJS script (.cjs) with no source map, one a worker thread evaluates as a
 * string. The file is written under a name of this process, then renamed: another launcher writing at the same
 * time cannot tear it.
 *
 * @example const file = await bundleEntry(esbuild, { entry: 'scripts/build-bible.ts', outDir: 'dist/build-bible' }); await import(pathToFileURL(file).href);
 */
export async function bundleEntry(esbuild, options) {
  return (await bundleWithInputs(esbuild, options)).moduleFile;
}

/**
 * `bundleEntry`, made only when the bundle in `outDir` is not one of the same inputs: its files (the
 * project's and those of the bundled packages) are hashed against the ones recorded beside it when it
 * was made, with esbuild's version, the options and the code that makes bundles (this file and its two
 * helpers); a bundle made from other bytes is made anew, so it is never stale. `loadEsbuild` is called
 * only then (the esbuild service starts a child process).
 *
 * Why for the Bible build: making its bundle took 0.2-0.3 s of the build's start, when nothing else runs;
 * checking the hashes of its ~300 input files takes about 30 ms. For npm start's service with its packages
 * (scripts/lib/service-bundle.mjs): about 1.5 s to make, 30-120 ms to check its ~900 files.
 *
 * @example const file = await cachedBundleEntry(loadEsbuild, { entry: 'scripts/build-bible.ts', outDir: 'dist/build-bible', inline: ['@sinclair/typebox'] });
 */
export async function cachedBundleEntry(loadEsbuild, options) {
  const recorded = recordedBundle(options);
  if (recorded) return recorded;
  const esbuild = loadEsbuild();
  try {
    const { moduleFile, inputs } = await bundleWithInputs(esbuild, options);
    const manifest = { key: { ...bundleKey(options), esbuild: esbuild.version }, inputs, moduleFile, moduleHash: fileHash(moduleFile) };
    writeAtomically(manifestFile(options), JSON.stringify(manifest));
    return moduleFile;
  } finally {
    await esbuild.stop();
  }
}

/**
 * The bundle `cachedBundleEntry` would use again for these options (its path), or undefined when it must be
 * made: none yet, or one made from other inputs, options or code. Reads and hashes files; loads no esbuild.
 *
 * @example const file = recordedBundle({ entry: 'src/server.ts', outDir: 'dist/start', external: [] }) ?? (await makeIt());
 */
export function recordedBundle(options) {
  try {
    const recorded = JSON.parse(readFileSync(manifestFile(options), 'utf8'));
    const key = bundleKey(options);
    // A checkout copied with its dist/ (cp -al) finds the manifest of the checkout it was copied from, whose
    // bundle and inputs are that checkout's files: it must make its own, or it runs the other one's code.
    const same =
      recorded.moduleFile === moduleFileOf(options.entry, options.outDir, options.format) &&
      JSON.stringify(recorded.key) === JSON.stringify({ ...key, esbuild: recorded.key.esbuild }) &&
      sameInputs(recorded.inputs) &&
      fileHash(recorded.moduleFile) === recorded.moduleHash;
    return same ? recorded.moduleFile : undefined;
  } catch {
    // No bundle yet, or one this check cannot read: to be made anew.
    return undefined;
  }
}

function manifestFile({ entry, outDir }) {
  return path.join(root, outDir, `${path.basename(entry, '.ts')}.inputs.json`);
}

/** What a bundle is made from besides its input files; esbuild's version is filled in when it is made. */
function bundleKey({ entry, define, inline, external, format }) {
  return {
    esbuild: undefined,
    entry,
    // A hash: the service's define holds the whole search worker.
    define: define ? createHash('sha256').update(JSON.stringify(define)).digest('hex') : null,
    inline: inline ?? [],
    external: external ?? null,
    format: format ?? 'esm',
    makers: MAKERS.map(fileHash),
  };
}

/** Where the bundle of `entry` goes in this checkout. */
function moduleFileOf(entry, outDir, format = 'esm') {
  return path.join(root, outDir, `${path.basename(entry, '.ts')}.${format === 'cjs' ? 'cjs' : 'mjs'}`);
}

async function bundleWithInputs(esbuild, { entry, outDir, define, inline, external, format = 'esm' }) {
  const options = commonOptions();
  if (inline?.length) {
    delete options.packages;
    options.plugins = [...options.plugins, externalPackagesExcept(inline)];
  }
  if (external) {
    delete options.packages;
    options.external = external;
    options.plugins = [...options.plugins, zodEnglishOnly()];
    if (format === 'esm') options.banner = { js: REQUIRE_BANNER };
  }
  const outfile = moduleFileOf(entry, outDir, format);
  const result = await esbuild.build({
    ...options,
    metafile: true,
    entryPoints: [path.join(root, entry)],
    format,
    outfile,
    sourcemap: format === 'esm' ? 'linked' : false,
    sourcesContent: false,
    define,
  });
  mkdirSync(path.join(root, outDir), { recursive: true });
  for (const file of result.outputFiles) {
    // A stack trace needs the file and line only: a map of every token costs the server 7.5 MB once parsed (line-source-map.mjs).
    writeAtomically(file.path, file.path.endsWith('.map') ? lineLevelSourceMap(file.text) : asciiOnly(file.text));
  }
  return { moduleFile: outfile, inputs: inputHashes(result.metafile, root) };
}

/**
 * The code with every character past ASCII written as a `\uXXXX` escape. V8 keeps the source of every
 * script it loaded, at one byte a character when all are ASCII and two otherwise: esbuild escapes strings
 * but not regular expressions or tagged templates (`html` pages with a "·", a "’" in a pattern), which
 * made the service's whole bundle cost twice its size. The escape means the same character in a string,
 * a template's cooked text, a regular expression or a name; only a tag that reads `strings.raw` would
 * see it (none in the project), and a comment (none survive minifying) changes.
 */
export function asciiOnly(code) {
  return code.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Node, this major version; packages stay in node_modules (a native addon cannot be bundled), and
 * `import.meta.url` and `import.meta.dirname` keep meaning each source file's own place. Whitespace and
 * comments are left out: V8 keeps each loaded script's source in memory for the process's life (the
 * line-level source map still names each TypeScript line, line-source-map.mjs).
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
    minifyWhitespace: true,
    legalComments: 'none',
    plugins: [projectSources()],
  };
}

/**
 * The project's TypeScript as esbuild reads it. In a bundle, `import.meta` is the bundle's own: a file that
 * finds its neighbours from its own place (src/resources/resources.ts finds the checkout, the SQLite driver
 * resolves its package, the Bible build bundles its worker threads from their sources) gets its source's
 * path written in instead. Characters past ASCII are escaped here rather than only in the output
 * (asciiOnly): an escape lengthens its line, and here the source map accounts for it.
 */
function projectSources() {
  return {
    name: 'project-sources',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const contents = asciiOnly(text.includes('import.meta.') ? withSourcePlace(text, args.path) : text);
        return contents === text ? undefined : { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * zod 4's `locales` namespace (zod/v4/locales/index.js, re-exported as `z.locales` and `core.locales`) with English
 * alone. The index imports every language's messages (some 60 files, 330 kB of source), so a bundle with zod in it
 * held them all; zod itself configures English (classic/schemas.js imports en.js) and nothing in the service or its
 * packages sets another (`z.config(z.locales.fr())`). V8 keeps a script's source text for the process's life.
 */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
        contents: 'export { default as en } from "./en.js";',
        loader: 'js',
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}

function withSourcePlace(text, file) {
  // Not where the words are quoted: build/writers/bundled-worker.ts names import.meta.url in its own esbuild options.
  const place = (name) => new RegExp(`(?<!['"\`])import\\.meta\\.${name}\\b(?!['"\`])`, 'g');
  return text
    .replace(place('url'), JSON.stringify(pathToFileURL(file).href))
    .replace(place('dirname'), JSON.stringify(path.dirname(file)))
    .replace(place('filename'), JSON.stringify(file));
}

/** The esbuild that tsx depends on, so it is there after any `npm install` (esbuild itself is a devDependency). */
export function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild');
}
