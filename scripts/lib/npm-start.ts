// npm start's own command line, read from package.json, for the runs that must start the service as it does (the bench) or carry its Node flags (the binary).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Node's arguments in package.json's `start` script (`exec node [flags] scripts/start.mjs`): the
 * flags, then the entry.
 *
 * @example npmStartArguments('exec node --max-semi-space-size=8 scripts/start.mjs') // ['--max-semi-space-size=8', 'scripts/start.mjs']
 */
export function npmStartArguments(startScript: string): string[] {
  const words = startScript.trim().split(/\s+/);
  if (words[0] === 'exec') words.shift();
  if (words[0] !== 'node' || words.length < 2 || words.some((word) => /["'$`\\;&|<>]/.test(word))) {
    throw new Error(`package.json's start script is not "exec node [flags] script" with plain words: ${startScript}`);
  }
  return words.slice(1);
}

/** The start script of the package.json in `root`. */
export function npmStartScript(root: string): string {
  const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return packageJson.scripts.start;
}

/**
 * The Node flags `npm start` runs the service with (its arguments before the entry): the single
 * binary runs with the same, through its SEA configuration's execArgv.
 *
 * @example npmStartNodeFlags(process.cwd()) // ['--max-semi-space-size=8']
 */
export function npmStartNodeFlags(root: string): string[] {
  return npmStartArguments(npmStartScript(root)).slice(0, -1);
}
