// What esbuild bundles are made from, and how they are kept: shared by the launchers' bundles (scripts/lib/bundle.mjs) and the Bible build's worker scripts (build/writers/bundled-worker.ts).
//
// Plain JavaScript: the launchers import it before anything can load TypeScript.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/** Every package import stays an import from node_modules, except those of `inlined` (and their subpaths), which esbuild bundles. */
export function externalPackagesExcept(inlined) {
  return {
    name: 'external-packages-except',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || !inlined.some((name) => args.path === name || args.path.startsWith(`${name}/`))) {
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
}

/** The hex SHA-256 of a file's bytes. */
export function fileHash(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Each input file of esbuild's metafile (paths relative to `base`), by absolute path, with its hash now. */
export function inputHashes(metafile, base) {
  return Object.fromEntries(
    Object.keys(metafile.inputs).map((input) => {
      const absolute = path.resolve(base, input);
      return [absolute, fileHash(absolute)];
    }),
  );
}

/**
 * True when every recorded input still has the bytes it had (compared by hash, not by date): a
 * bundle made from them is not stale. A file gone throws, which callers read as "make it anew".
 */
export function sameInputs(recorded) {
  return Object.entries(recorded).every(([input, hash]) => fileHash(input) === hash);
}

/** Writes under a name of this process and thread, then renames: another writer at the same time cannot tear the file. */
export function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.${threadId}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}
