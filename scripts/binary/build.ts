// Builds dist/church-api: Node 24, the bundle, the SQLite addon and the SEA steps, skipped when nothing that goes into the binary changed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SQLITE_ADDON_ASSET } from '../../src/binary/sqlite-addon.ts';
import { npmStartNodeFlags } from '../lib/npm-start.ts';
import { bundleService } from './bundle.ts';
import { readEmbeddedFiles } from './embedded-files.ts';
import { ensureNode24, NODE24_VERSION } from './node24.ts';
import { writeSingleExecutable } from './sea.ts';

export interface BinaryBuildOptions {
  /** The checkout to build from. */
  root: string;
  /** The executable to write; default `<root>/dist/church-api`. */
  out?: string;
  /** Rebuild even when the inputs are those of the executable already there. */
  force?: boolean;
}

export interface BinaryBuild {
  file: string;
  /** False when the executable already there was built from the same inputs. */
  built: boolean;
  bytes: number;
  seconds: number;
  nodeVersion: string;
  commit: string | undefined;
  /** esbuild's warnings (not errors), for the terminal. */
  warnings: string[];
}

/** Thrown when Node 24 cannot be had here: the caller reports it rather than a stack. */
export class Node24MissingError extends Error {}

/** The better-sqlite3 13 addon (Node-API, so one file serves every Node from 22 on) for linux-x64. */
const SQLITE_ADDON = 'node_modules/better-sqlite3-napi/prebuilds/linux-x64.node';
const WORK_DIR = '.cache/binary';

/**
 * Bundles the service and turns it into a single executable on Node 24. The inputs (bundle,
 * addon, Node executable) are hashed; when the executable at `out` was made from the same hash
 * and is unchanged since, the SEA steps (most of the time: copying and patching 120 MB) are skipped.
 *
 * @example const { file, bytes } = await buildBinary({ root: process.cwd() });
 */
export async function buildBinary(options: BinaryBuildOptions): Promise<BinaryBuild> {
  const started = performance.now();
  const { root } = options;
  const out = path.resolve(root, options.out ?? 'dist/church-api');
  const node = ensureNode24(root);
  if ('missing' in node) throw new Node24MissingError(node.missing);

  const commit = gitCommit(root);
  const { code, warnings } = await bundleService({ root, files: await readEmbeddedFiles(root), commit });
  const addon = path.join(root, SQLITE_ADDON);
  // npm start's Node flags (package.json), so that the binary's memory is that of npm start.
  const execArgv = npmStartNodeFlags(root);
  const inputHash = hashOf([Buffer.from(code), fs.readFileSync(addon), fs.readFileSync(node.path), Buffer.from(JSON.stringify(execArgv))]);

  const workDir = path.join(root, WORK_DIR);
  const stampFile = path.join(workDir, `${path.basename(out)}.stamp.json`);
  const built = options.force || !upToDate(out, stampFile, inputHash);
  if (built) {
    fs.mkdirSync(workDir, { recursive: true });
    const mainFile = path.join(workDir, 'church-api.cjs');
    fs.writeFileSync(mainFile, code);
    writeSingleExecutable({ node: node.path, mainFile, execArgv, assets: { [SQLITE_ADDON_ASSET]: addon }, workDir, out });
    fs.writeFileSync(stampFile, `${JSON.stringify({ inputHash, out, ...fileIdentity(out) }, null, 2)}\n`);
  }
  return {
    file: out,
    built,
    bytes: fs.statSync(out).size,
    seconds: (performance.now() - started) / 1000,
    nodeVersion: `v${NODE24_VERSION}`,
    commit,
    warnings,
  };
}

interface Stamp {
  inputHash: string;
  out: string;
  size: number;
  mtimeMs: number;
}

function upToDate(out: string, stampFile: string, inputHash: string): boolean {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as Stamp;
  } catch {
    return false;
  }
  const current = fs.existsSync(out) ? fileIdentity(out) : undefined;
  return stamp.inputHash === inputHash && stamp.out === out && current?.size === stamp.size && current.mtimeMs === stamp.mtimeMs;
}

function fileIdentity(file: string): { size: number; mtimeMs: number } {
  const { size, mtimeMs } = fs.statSync(file);
  return { size, mtimeMs };
}

function hashOf(parts: Buffer[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(createHash('sha256').update(part).digest());
  return hash.digest('hex');
}

/** The commit checked out, with `-dirty` when tracked files differ from it; undefined outside git. */
function gitCommit(root: string): string | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}-dirty`;
  } catch {
    return undefined;
  }
}
