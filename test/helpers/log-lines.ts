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

/** One log line, parsed. */
export type LogEntry = Record<string, unknown>;

/**
 * The first line (parsed) that `match` accepts, as soon as the logger has written it. An access
 * line is written when the server sees its response finish, which can come after the client has
 * read the whole answer: wait for the line itself rather than sleep. `timeoutMs` only bounds a
 * line that never comes (then the test fails); it is no assumption about the machine's speed.
 *
 * @example const line = await loggedLine(server.logs, (entry) => entry.requestId === 'mine');
 */
export async function loggedLine(lines: readonly string[], match: (entry: LogEntry) => boolean, timeoutMs = 10_000): Promise<LogEntry> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.map((line) => JSON.parse(line) as LogEntry).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no log line matched within ${timeoutMs} ms (${lines.length} lines written)`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
