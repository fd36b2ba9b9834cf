// Colours for the messages of the scripts that start fast (build:bible, and the command-line errors every script shares), without zx.
import { styleText } from 'node:util';

type Format = Parameters<typeof styleText>[0];

/**
 * `text` in `format` when `stream` is a terminal and NO_COLOR is not set (https://no-color.org),
 * else as it is, as chalk decides. Why not zx's chalk here: importing zx takes about 0.14 s,
 * which `npm run build:bible` would spend before reading a source.
 *
 * @example console.error(colored('red', 'no such file', process.stderr))
 */
export function colored(format: Format, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  const wanted = process.env.FORCE_COLOR ? process.env.FORCE_COLOR !== '0' : Boolean(stream.isTTY) && !process.env.NO_COLOR;
  return wanted ? styleText(format, text) : text;
}
