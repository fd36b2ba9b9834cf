// A log destination for tests: keeps each line the logger writes, without its newline.
import type { DestinationStream } from 'pino';

export interface LogLines {
  /** The lines written so far (JSON strings). */
  lines: string[];
  /** Pass to createLogger as its destination. */
  destination: DestinationStream;
}

export function collectLogLines(): LogLines {
  const lines: string[] = [];
  return { lines, destination: { write: (line) => void lines.push(line.replace(/\n$/, '')) } };
}
