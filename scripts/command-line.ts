// The scripts' command lines, parsed by node:util parseArgs: a bad one ends the script with one line.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { colored } from './lib/colors.ts';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * The options given to this script (no positional arguments). An unknown option, or a value
 * missing or empty, ends the process with exit code 1 and one line that names the option
 * and points to the usage at the top of `script`.
 *
 * @example const options = parseCommandLine('scripts/build-bible.ts', { out: { type: 'string' } }); // options.out
 */
export function parseCommandLine<const Options extends OptionsConfig>(script: string, options: Options) {
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options, strict: true, allowPositionals: false });
    for (const [name, value] of Object.entries(values)) {
      if (value === '') throw new Error(`Option '--${name}' needs a value.`);
    }
    return values;
  } catch (error) {
    // parseArgs explains some mistakes over several lines; one line reads better in a terminal and a log.
    const message = (error as Error).message.replace(/\s*\n\s*/g, ' ');
    console.error(colored('red', `${message} (see the usage at the top of ${script})`, process.stderr));
    process.exit(1);
  }
}
