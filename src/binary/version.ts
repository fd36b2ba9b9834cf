// What `church-api --version` prints: the package version, the commit the binary was built from when known, and the Node.js inside.
import packageJson from '../../package.json' with { type: 'json' };
import { embedded } from '../resources/embedded.ts';

/**
 * One line for operators and bug reports.
 *
 * @example versionLine() // 'church-api 0.1.0 (commit 3f2a9c1b7d0e) on Node.js v24.21.0'
 */
export function versionLine(): string {
  const commit = embedded?.commit ? ` (commit ${embedded.commit})` : '';
  return `church-api ${packageJson.version}${commit} on Node.js ${process.version}`;
}
