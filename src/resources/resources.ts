// The one way to read a file the service ships with (migrations, page assets, word lists, demo data): from the single binary's bundle, else from the checkout.
import fs from 'node:fs';
import path from 'node:path';
import { embedded } from './embedded.ts';

/**
 * Where resource paths start. From a checkout, the repository itself; in the single binary, a
 * folder that exists nowhere on disk, so that a path under it can only mean an embedded file and
 * a file left out of the bundle fails loudly instead of being picked up from the working folder.
 */
export const RESOURCE_ROOT = embedded ? '/church-api-embedded' : path.resolve(import.meta.dirname, '../..');

/**
 * The absolute path of a file shipped with the service, from its repository path.
 *
 * @example resourcePath('data/migrations') // '/…/repo/data/migrations', or '/church-api-embedded/data/migrations'
 */
export function resourcePath(repositoryPath: string): string {
  return path.join(RESOURCE_ROOT, repositoryPath);
}

/** The bytes of a file: embedded when `file` is under RESOURCE_ROOT in the binary, otherwise read from disk. */
export function readResource(file: string): Buffer {
  const name = embeddedName(file);
  return name === undefined ? fs.readFileSync(file) : Buffer.from(embeddedText(name), 'utf8');
}

/** The text (UTF-8) of a file, as readResource finds it. */
export function readResourceText(file: string): string {
  const name = embeddedName(file);
  return name === undefined ? fs.readFileSync(file, 'utf8') : embeddedText(name);
}

/** The names of the files directly inside a folder, sorted, as readResource finds them. */
export function listResourceFolder(dir: string): string[] {
  const name = embeddedName(dir);
  // Files only, as from the bundle: a folder inside (public/docs/vendor/) is served by its own route.
  if (name === undefined)
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort();
  const prefix = `${name}/`;
  return Object.keys(embedded!.files)
    .filter((file) => file.startsWith(prefix) && !file.slice(prefix.length).includes('/'))
    .map((file) => file.slice(prefix.length))
    .sort();
}

/**
 * The code of the bundled search worker in the binary (for `new Worker(code, { eval: true })`),
 * or undefined from a checkout, where the worker's TypeScript is loaded through tsx.
 */
export function embeddedSearchWorker(): string | undefined {
  return embedded?.searchWorker;
}

/** The file's repository path when the binary carries it (the path is under RESOURCE_ROOT); undefined for a file on disk. */
function embeddedName(file: string): string | undefined {
  if (!embedded) return undefined;
  const relative = path.relative(RESOURCE_ROOT, path.resolve(file));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

function embeddedText(name: string): string {
  const text = embedded!.files[name];
  if (text === undefined) {
    const error: NodeJS.ErrnoException = new Error(
      `ENOENT: ${name} is not embedded in this binary (scripts/binary/embedded-files.ts lists what is)`,
    );
    error.code = 'ENOENT';
    throw error;
  }
  return text;
}
