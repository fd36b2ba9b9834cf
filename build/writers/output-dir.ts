// The one place the Bible build writes to disk: files go to a temporary folder beside the target, then are renamed into place.
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  const staging = await StagingFolder.open(rootDir, replace);
  try {
    for (const file of files) staging.write(file);
    await staging.commit();
    return staging.stats;
  } catch (error) {
    await staging.discard();
    throw error;
  }
}

/**
 * A temporary folder beside the entries it will replace, filled file by file as a build goes
 * (so no output is held in memory), then swapped into place by rename in `commit`.
 *
 * @example const staging = await StagingFolder.open('public', REPLACED_ENTRIES); staging.write(file); await staging.commit();
 */
export class StagingFolder {
  readonly stats: WriteStats = { files: 0, bytes: 0 };
  readonly #folders = new Set<string>();

  private constructor(
    readonly rootDir: string,
    /** The staging folder itself; worker threads write into it with writeFileUnder. */
    readonly dir: string,
    readonly replace: readonly string[],
  ) {}

  static async open(rootDir: string, replace: readonly string[]): Promise<StagingFolder> {
    await mkdir(rootDir, { recursive: true });
    await removeAbandonedStaging(rootDir);
    return new StagingFolder(rootDir, await mkdtemp(join(rootDir, STAGING_PREFIX)), replace);
  }

  /**
   * Writes one file now. Synchronous on purpose: measured on 17,820 small files, 32 async
   * writes in flight cost 1.5-2.5 times the CPU (thread-pool hand-offs) of sequential writes.
   */
  write(file: OutputFile): void {
    this.#checkInside(file.path);
    this.stats.bytes += writeFileUnder(this.dir, file, this.#folders);
    this.stats.files++;
  }

  /**
   * Stages the live tree's `path` (a file, or a folder and everything under it, relative to the
   * root) unchanged: each file is hard-linked, so it keeps its inode, mtime and bytes and costs
   * no copy, and the live tree stays whole until `commit` (a copy where links are refused).
   * Returns the files staged, with their sizes.
   *
   * @example staging.reuse('api/v1/bible/fr')
   */
  reuse(path: string): { path: string; bytes: number }[] {
    this.#checkInside(path);
    const staged: { path: string; bytes: number }[] = [];
    const visit = (relative: string): void => {
      const from = join(this.rootDir, ...relative.split('/'));
      if (statSync(from).isDirectory()) {
        for (const name of readdirSync(from).sort()) visit(`${relative}/${name}`);
        return;
      }
      const to = join(this.dir, ...relative.split('/'));
      const folder = dirname(to);
      if (!this.#folders.has(folder)) {
        mkdirSync(folder, { recursive: true });
        this.#folders.add(folder);
      }
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
      const bytes = statSync(to).size;
      this.stats.bytes += bytes;
      this.stats.files++;
      staged.push({ path: relative, bytes });
    };
    visit(path);
    return staged;
  }

  /** Swaps every replaced entry for its staged copy (or removes it when nothing was staged), then drops the staging folder. */
  async commit(): Promise<void> {
    try {
      const old = join(this.dir, '.old');
      await mkdir(old);
      for (const [index, entry] of this.replace.entries()) {
        const target = join(this.rootDir, entry);
        await mkdir(dirname(target), { recursive: true });
        await renameIfExists(target, join(old, String(index)));
        await renameIfExists(join(this.dir, entry), target);
      }
    } finally {
      await this.discard();
    }
  }

  /**
   * Removes the staging folder and what it holds (after `commit`, the tree it replaced). Synchronous
   * on purpose: the old tree is ~19,800 files, and `rm` of fs/promises (one thread-pool round trip
   * per file) took 1.0-1.2 s of wall and as much CPU where `rmSync` took 0.5-0.7 s and 0.4 s of CPU;
   * nothing else runs on this thread by then.
   */
  async discard(): Promise<void> {
    rmSync(this.dir, { recursive: true, force: true });
  }

  #checkInside(path: string): void {
    if (!this.replace.some((entry) => path === entry || path.startsWith(`${entry}/`))) {
      throw new Error(`writeOutputs: ${path} is outside the replaced entries (${this.replace.join(', ')})`);
    }
  }
}

/**
 * Writes one file under `dir` (a staging folder), creating its folder once per `folders` set;
 * returns the bytes written. Exported for the search-index worker, which writes its own files.
 */
export function writeFileUnder(dir: string, file: OutputFile, folders: Set<string>): number {
  const path = join(dir, ...file.path.split('/'));
  if (!path.startsWith(dir + sep)) throw new Error(`writeOutputs: unsafe path ${file.path}`);
  const folder = dirname(path);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  writeFileSync(path, file.content);
  return typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength;
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
