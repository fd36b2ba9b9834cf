// The operator command line: `npm run cli -- <command> [args]`; dispatches to the church and key commands.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { churchCommands } from './church-commands.ts';
import { keyCommands } from './key-commands.ts';
import { CliError, type CliCommand } from './command.ts';

export const commands: readonly CliCommand[] = [...churchCommands, ...keyCommands];

/** Runs one command; returns the exit code. Output goes through `print` and `printError`. */
export async function runCli(
  argv: string[],
  print: (line: string) => void = console.log,
  printError: (line: string) => void = console.error,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [name, ...args] = argv;
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    if (name && name !== 'help' && name !== '--help') printError(`Unknown command: ${name}\n`);
    print('Usage: npm run cli -- <command> [arguments]\n\nCommands:');
    for (const candidate of commands) print(`  ${candidate.name} ${candidate.usage}`);
    return name && name !== 'help' && name !== '--help' ? 2 : 0;
  }
  const config = loadConfig(env);
  const db = openDatabase(config.databasePath);
  try {
    return await command.run(args, { config, db, print });
  } catch (error) {
    if (error instanceof CliError) {
      printError(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    db.close();
  }
}
