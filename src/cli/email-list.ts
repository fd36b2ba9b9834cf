// Reads a list of e-mail addresses for the reserved list: one per line (# comments allowed) or a JSON array of strings.
import fs from 'node:fs';
import { CliError } from './command.ts';

/** One address per line (blank lines and # comments skipped), or a JSON array of strings. */
export function readEmailList(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CliError(`${file} looks like JSON but does not parse: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed) || !parsed.every((item): item is string => typeof item === 'string')) {
      throw new CliError(`${file} must be a JSON array of strings.`);
    }
    return parsed;
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
