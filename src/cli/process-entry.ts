// The operator CLI as a process runs it (`npm run cli`, `church-api cli`): a bad setting is one line, as for the server.
import { ConfigError } from '../config.ts';
import { NPM_INVOCATION, runCli } from './main.ts';

/**
 * Runs one CLI command with the process's output and environment; returns the exit code.
 * `invocation` is how usage lines name the CLI (`church-api cli` in the binary).
 *
 * @example process.exitCode = await runCliProcess(process.argv.slice(2));
 */
export async function runCliProcess(argv: string[], invocation: string = NPM_INVOCATION): Promise<number> {
  try {
    return await runCli(argv, console.log, console.error, process.env, invocation);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    return 1;
  }
}
