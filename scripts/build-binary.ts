// Builds the single binary dist/church-api (Node 24 SEA: the service, its files, the SQLite addon); nothing to do when its inputs are unchanged.
// Usage: npm run build:binary -- [--out dist/church-api] [--force]
//   --out FILE  the executable to write (default dist/church-api)
//   --force     rebuild even when the executable there was made from the same inputs
import path from 'node:path';
import { chalk } from 'zx';
import { buildBinary, Node24MissingError } from './binary/build.ts';
import { parseCommandLine } from './command-line.ts';

const options = parseCommandLine('scripts/build-binary.ts', {
  out: { type: 'string' },
  force: { type: 'boolean', default: false },
});

try {
  const result = await buildBinary({ root: process.cwd(), out: options.out, force: options.force });
  for (const warning of result.warnings) console.warn(chalk.yellow(warning));
  const what = `${path.relative(process.cwd(), result.file)} (${(result.bytes / 1024 / 1024).toFixed(1)} MiB, Node.js ${result.nodeVersion}, commit ${result.commit ?? 'unknown'})`;
  const seconds = result.seconds.toFixed(1);
  console.log(
    chalk.green(result.built ? `Built ${what} in ${seconds} s` : `${what} is up to date (checked in ${seconds} s); --force rebuilds.`),
  );
} catch (error) {
  // Without Node 24 there is nothing to fix in the code: one line saying what is missing.
  console.error(
    chalk.red(
      error instanceof Node24MissingError ? `Cannot build the binary: ${error.message}` : ((error as Error).stack ?? String(error)),
    ),
  );
  process.exitCode = 1;
}
