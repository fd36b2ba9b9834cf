// npm start's and npm run build:bible's own command lines, read from package.json, for the runs that must start them as npm does (the benches) or carry their Node flags (the binary).
import fs from 'node:fs';
import path from 'node:path';

/** `NAME=value` before the command: a variable the shell sets for Node alone. */
const ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=(.*)$/;

/**
 * Node's arguments in package.json's `start` script (`[NAME=value…] exec node [flags] scripts/start.mjs`):
 * the flags, then the entry. Variables set before `exec` are npmStartEnvironment's.
 *
 * @example npmStartArguments('exec node --max-semi-space-size=8 scripts/start.mjs') // ['--max-semi-space-size=8', 'scripts/start.mjs']
 */
export function npmStartArguments(startScript: string, name = 'start'): string[] {
  return parseStartScript(startScript, name).args;
}

/**
 * The variables package.json's `start` script sets before `exec node` (the C library reads some only
 * at a process's start, so npm start sets them): whoever starts the service as npm does sets them too.
 *
 * @example npmStartEnvironment('MALLOC_ARENA_MAX=2 exec node scripts/start.mjs') // { MALLOC_ARENA_MAX: '2' }
 */
export function npmStartEnvironment(startScript: string, name = 'start'): Record<string, string> {
  return parseStartScript(startScript, name).env;
}

function parseStartScript(startScript: string, name: string): { env: Record<string, string>; args: string[] } {
  const words = startScript.trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (let match = ASSIGNMENT.exec(words[0] ?? ''); match; match = ASSIGNMENT.exec(words[0] ?? '')) {
    env[match[1]!] = match[2]!;
    words.shift();
  }
  if (words[0] === 'exec') words.shift();
  if (words[0] !== 'node' || words.length < 2 || words.some((word) => /["'$`\\;&|<>]/.test(word)) || Object.values(env).some(unsafe)) {
    throw new Error(`package.json's ${name} script is not "[NAME=value…] exec node [flags] script" with plain words: ${startScript}`);
  }
  return { env, args: words.slice(1) };
}

function unsafe(value: string): boolean {
  return /["'$`\\;&|<>=]/.test(value);
}

/** The start script of the package.json in `root`. */
export function npmStartScript(root: string): string {
  return npmScript(root, 'start');
}

/** How npm runs a package.json script of the form `[NAME=value…] exec node [flags] script`. */
export interface NpmNodeCommand {
  /** Node's arguments: the flags, then the entry. */
  args: string[];
  /** The variables set before `exec node` (the C library reads some only at a process's start). */
  env: Record<string, string>;
}

/**
 * The package.json script `name` in `root`, read once, as Node's arguments and the variables it sets:
 * whoever runs the script as npm does (the benches: `start`, `build:bible`) passes both, so a variable
 * added to the script reaches every such run.
 *
 * @example npmNodeCommand(process.cwd(), 'build:bible') // { args: ['--single-threaded-gc', …, 'scripts/build-bible.mjs'], env: { MALLOC_TOP_PAD_: '67108864' } }
 */
export function npmNodeCommand(root: string, name: string): NpmNodeCommand {
  return parseStartScript(npmScript(root, name), name);
}

function npmScript(root: string, name: string): string {
  const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const script = packageJson.scripts[name];
  if (script === undefined) throw new Error(`package.json has no ${name} script`);
  return script;
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
