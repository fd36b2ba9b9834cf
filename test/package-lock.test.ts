// A fresh clone's `npm install` leaves package-lock.json as committed: the lock already says what npm will find about install scripts.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

interface LockedPackage {
  hasInstallScript?: boolean;
}

/**
 * Whether npm runs an install script for the package installed at `folder` when it installs from
 * the lockfile: its own preinstall, install or postinstall, or the `node-gyp rebuild` npm makes up
 * for a binding.gyp when the package has no install or preinstall. A package's `gypfile: false`
 * does not count: npm loses it on nodes built from the lockfile (npm/cli#9837, npm 10 and 11), so
 * better-sqlite3 13 gets the made-up script, and npm writes hasInstallScript into the lock after it.
 */
function npmRunsInstallScript(folder: string): boolean | undefined {
  let manifest: { scripts?: Record<string, string> };
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  } catch {
    return undefined; // Not installed here (another platform's optional package).
  }
  const scripts = manifest.scripts ?? {};
  if (scripts.preinstall || scripts.install || scripts.postinstall) return true;
  return fs.existsSync(path.join(folder, 'binding.gyp'));
}

it('marks hasInstallScript on every package npm runs an install script for, so npm install does not add it', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
  const unmarked = Object.entries(lock.packages)
    .filter(([location, entry]) => location !== '' && npmRunsInstallScript(path.join(root, location)) && entry.hasInstallScript !== true)
    .map(([location]) => location);
  expect(unmarked, 'add "hasInstallScript": true to these entries of package-lock.json (npm install would)').toEqual([]);
  // The package that made this test: checked by name too, so a move of node_modules cannot pass it silently.
  expect(npmRunsInstallScript(path.join(root, 'node_modules/better-sqlite3-napi'))).toBe(true);
});
