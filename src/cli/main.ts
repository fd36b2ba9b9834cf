// The operator command line: `npm run cli -- <command> [args]`; dispatches to the church and account commands.
import { loadConfig } from '../config.ts';
import { openStorage } from '../storage.ts';
import { accountCommands } from './account-commands.ts';
import { churchCommands } from './church-commands.ts';
import { type CliCommand, CliError, type DatabaseFileCommand } from './command.ts';
import { createCliContext } from './context.ts';
import { copyCommand } from './copy-command.ts';
import { databaseCommands } from './database-commands.ts';

export const commands: readonly (CliCommand | DatabaseFileCommand)[] = [
  ...churchCommands,
  ...accountCommands,
  ...databaseCommands,
  copyCommand,
];

const HELP = new Set(['help', '--help', '-h']);

/** How the usage lines name the CLI: the checkout's npm script; the binary passes `church-api cli`. */
export const NPM_INVOCATION = 'npm run cli --';

/**
 * Runs one command; returns the exit code (0 done, 1 refused, 2 unknown command). Output goes
 * through `print` and `printError`. `help` lists every command; `<command> --help` shows one.
 *
 * @example process.exitCode = await runCli(['list-keys', '--email', 'ana@example.org']);
 */
export async function runCli(
  argv: string[],
  print: (line: string) => void = console.log,
  printError: (line: string) => void = console.error,
  env: NodeJS.ProcessEnv = process.env,
  invocation: string = NPM_INVOCATION,
): Promise<number> {
  const [name, ...args] = argv;
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    const unknown = name !== undefined && !HELP.has(name);
    if (unknown) printError(`Unknown command: ${name}\n`);
    printUsage(print, invocation);
    return unknown ? 2 : 0;
  }
  if (args.length === 1 && HELP.has(args[0])) {
    print(`Usage: ${invocation} ${command.name} ${command.arguments}`.trimEnd());
    print(`  ${command.summary}`);
    return 0;
  }
  const config = loadConfig(env);
  if ('database' in command) return refusalsAsExitCode(() => command.run(args, { config, print }), printError);
  const storage = await openStorage(config, undefined, 'church-api-cli');
  try {
    return await refusalsAsExitCode(() => command.run(args, createCliContext(config, storage, print)), printError);
  } finally {
    await storage.close();
  }
}

/** A CliError is one line on stderr and exit code 1; anything else is a bug and goes up with its stack. */
async function refusalsAsExitCode(run: () => Promise<number>, printError: (line: string) => void): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CliError) {
      printError(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function printUsage(print: (line: string) => void, invocation: string): void {
  const synopses = commands.map((command) => `${command.name} ${command.arguments}`.trimEnd());
  const width = Math.max(...synopses.map((synopsis) => synopsis.length));
  print(`Usage: ${invocation} <command> [arguments]   (<command> --help for one command)\n\nCommands:`);
  commands.forEach((command, index) => {
    print(`  ${synopses[index].padEnd(width)}  ${command.summary}`);
  });
}
