// esbuild bundles the service into one CommonJS file for the single binary, with the search worker and the shipped files inside.
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { EmbeddedBundle } from '../../src/resources/embedded.ts';
import { asciiOnly } from '../lib/bundle.mjs';

export interface BundleInput {
  root: string;
  /** Repository path → text of the files the service reads at run time (embedded-files.ts). */
  files: Record<string, string>;
  commit: string | undefined;
}

export interface BundleOutput {
  /** The service, src/binary/main.ts and everything it imports, as one CommonJS script. */
  code: string;
  /** esbuild's warnings that did not fail the build, formatted for the terminal. */
  warnings: string[];
}

/**
 * Files that use `import.meta`, which CommonJS output leaves empty, on a path the binary never
 * takes: each reads it only when src/resources/embedded.ts is not replaced (a checkout).
 * Anywhere else, `import.meta` in the bundle is an error: it would break at run time.
 */
const IMPORT_META_ONLY_FROM_A_CHECKOUT: readonly string[] = [
  'src/resources/resources.ts',
  'src/bible/search-pool.ts',
  'src/bible/search-worker-code.ts',
];

/**
 * The options both bundles share: Node 24, CommonJS (a SEA's main script is CommonJS), everything inside;
 * no whitespace, as npm start's bundle (scripts/lib/bundle.mjs): V8 keeps a script's source for the process's life.
 */
const COMMON_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  write: false,
  logLevel: 'silent',
  legalComments: 'none',
  minifyWhitespace: true,
} as const satisfies esbuild.BuildOptions;

/**
 * Bundles the search worker first (a worker thread evaluates it as a string), then the service
 * with the worker, the files and the commit in place of src/resources/embedded.ts, and the
 * binary's SQLite driver (src/binary/sqlite-driver.ts) in place of build/contract/sqlite-driver.ts.
 *
 * @example const { code } = await bundleService({ root, files: await readEmbeddedFiles(root), commit: 'abc' });
 */
export async function bundleService(input: BundleInput): Promise<BundleOutput> {
  const { root } = input;
  const worker = await bundle(root, path.join(root, 'src/bible/search-worker.ts'), [binaryDriver(root)]);
  const embedded: EmbeddedBundle = { files: input.files, searchWorker: worker.code, commit: input.commit };
  const service = await bundle(root, path.join(root, 'src/binary/main.ts'), [binaryDriver(root), embeddedModule(root, embedded)]);
  return { code: service.code, warnings: [...worker.warnings, ...service.warnings] };
}

async function bundle(root: string, entry: string, plugins: esbuild.Plugin[]): Promise<BundleOutput> {
  let result: esbuild.BuildResult<typeof COMMON_OPTIONS>;
  try {
    result = await esbuild.build({ ...COMMON_OPTIONS, absWorkingDir: root, entryPoints: [entry], plugins });
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (!failure.errors) throw error;
    throw new Error((await esbuild.formatMessages(failure.errors, { kind: 'error' })).join('\n'));
  }
  const refused = result.warnings.filter((warning) => {
    const isImportMeta = warning.id === 'empty-import-meta';
    return isImportMeta && !IMPORT_META_ONLY_FROM_A_CHECKOUT.includes(warning.location?.file ?? '');
  });
  if (refused.length > 0) {
    const formatted = await esbuild.formatMessages(refused, { kind: 'error' });
    throw new Error(`import.meta is empty in the CommonJS bundle; read files through src/resources/resources.ts:\n${formatted.join('\n')}`);
  }
  const others = result.warnings.filter((warning) => warning.id !== 'empty-import-meta');
  // ASCII only: one character past it (a '·' in a page template) and V8 keeps the whole script at two bytes a character.
  return { code: asciiOnly(result.outputFiles[0].text), warnings: await esbuild.formatMessages(others, { kind: 'warning' }) };
}

/** Resolves imports of build/contract/sqlite-driver.ts to src/binary/sqlite-driver.ts. */
function binaryDriver(root: string): esbuild.Plugin {
  const contractDriver = path.join(root, 'build/contract/sqlite-driver.ts');
  return {
    name: 'binary-sqlite-driver',
    setup(build) {
      build.onResolve({ filter: /sqlite-driver\.ts$/ }, (args) => {
        if (path.resolve(args.resolveDir, args.path) !== contractDriver) return undefined;
        return { path: path.join(root, 'src/binary/sqlite-driver.ts') };
      });
    },
  };
}

/** Resolves imports of src/resources/embedded.ts to a generated module that exports `embedded`. */
function embeddedModule(root: string, embedded: EmbeddedBundle): esbuild.Plugin {
  const stub = path.join(root, 'src/resources/embedded.ts');
  return {
    name: 'embedded-resources',
    setup(build) {
      build.onResolve({ filter: /embedded\.ts$/ }, (args) => {
        if (path.resolve(args.resolveDir, args.path) !== stub) return undefined;
        return { path: stub, namespace: 'embedded-resources' };
      });
      build.onLoad({ filter: /.*/, namespace: 'embedded-resources' }, () => ({
        contents: `export const embedded = ${JSON.stringify(embedded)};\n`,
        loader: 'js',
      }));
    },
  };
}
