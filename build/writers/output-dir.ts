// The one place the Bible build writes to disk: files go to a temporary folder beside the target, then are renamed into place.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { OutputFile } from './types.ts';

export interface WriteStats {
  files: number;
  bytes: number;
}

/**
 * Writes `files` (paths relative to `rootDir`) and replaces the entries named in `replace`
 * (top-level folders or files under `rootDir`, such as "api/v1/bible" or "_redirects") with
 * the new ones. Everything is first written into a temporary folder beside them, on the same
 * file system, then each entry is swapped in by rename: a reader sees the old tree or the new
 * one, never a half-written file. Entries in `replace` that the new output lacks are removed.
 *
 * @example await writeOutputs('public', files, ['api/v1/bible', 'bible-search', '_redirects'])
 */
export async function writeOutputs(rootDir: string, files: readonly OutputFile[], replace: readonly string[]): Promise<WriteStats> {
  for (const file of files) {
    if (!replace.some((entry) => file.path === entry || file.path.startsWith(`${entry}/`))) {
      throw new Error(`writeOutputs: ${file.path} is outside the replaced entries (${replace.join(', ')})`);
    }
  }
  await mkdir(rootDir, { recursive: true });
  await removeAbandonedStaging(rootDir);
  const staging = await mkdtemp(join(rootDir, STAGING_PREFIX));
  try {
    const stats = await writeFiles(staging, files);
    const old = join(staging, '.old');
    await mkdir(old);
    for (const [index, entry] of replace.entries()) {
      const target = join(rootDir, entry);
      const fresh = join(staging, entry);
      const backup = join(old, String(index));
      await mkdir(dirname(target), { recursive: true });
      await renameIfExists(target, backup);
      await renameIfExists(fresh, target);
    }
    return stats;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const STAGING_PREFIX = '.bible-staging-';

/** A build that was killed leaves its staging folder inside the public folder: remove it. */
async function removeAbandonedStaging(rootDir: string): Promise<void> {
  for (const name of await readdir(rootDir)) {
    if (name.startsWith(STAGING_PREFIX)) await rm(join(rootDir, name), { recursive: true, force: true });
  }
}

/** Renames `from` to `to` when `from` exists; false when it does not. */
export async function renameIfExists(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !(await exists(from))) return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the files under `dir`, creating each folder once. Synchronous on purpose: measured on
 * 17,820 small files, 32 async writes in flight cost 1.5-2.5 times the CPU (thread-pool
 * hand-offs) of plain sequential writes, and nothing else runs during this step.
 */
async function writeFiles(dir: string, files: readonly OutputFile[]): Promise<WriteStats> {
  const folders = new Set<string>();
  for (const file of files) folders.add(dirname(join(dir, file.path)));
  for (const folder of [...folders].sort()) mkdirSync(folder, { recursive: true });
  let bytes = 0;
  for (const file of files) {
    const path = join(dir, ...file.path.split('/'));
    if (!path.startsWith(dir + sep)) throw new Error(`writeOutputs: unsafe path ${file.path}`);
    writeFileSync(path, file.content);
    bytes += typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength;
  }
  return { files: files.length, bytes };
}
