// The service's pino logger: JSON lines on stdout, secret fields redacted, API keys scrubbed from every line.
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Field names whose values never reach a line, at the top level or one or two objects down (req.headers.authorization). */
const SECRET_FIELDS = ['authorization', 'cookie', 'password', 'token', 'secret', 'key', 'apiKey', 'api_key'];

const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

/**
 * `sk_live_` followed by key characters, where any character may be percent-encoded, even more
 * than once (`sk%5Flive%5F…`, `sk_live%5F…`, `%73k_live_…`, `sk%255Flive…`): whatever form a
 * client sent a key in, the line shows `sk_live_[redacted]`. Pure ASCII letters, digits, `_` and
 * `%` never need escaping in JSON, so replacing inside the serialised line keeps it valid JSON.
 */
const KEY_IN_TEXT = new RegExp(
  [...'sk_live_'].map((char) => `(?:${char}|%(?:25)*${char.charCodeAt(0).toString(16)})`).join('') +
    '(?:[A-Za-z0-9_]|%(?:25)*[0-9A-Fa-f]{2})*',
  'gi',
);

/** What any text KEY_IN_TEXT matches holds: a `%`, or else `sk_live_` itself in some letter case. Most text has neither. */
const MAYBE_KEY = /%|sk_live_/i;

/**
 * Bytes of lines the stdout writer may hold while the reader (journald, a pipe) is behind; past
 * it, new lines are dropped rather than memory growing or the service waiting on its log.
 */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A logger writing one JSON object per line to `destination` (stdout by default).
 * Lines keep the field names operators already read: `time` (ISO 8601), `level` (a label), `message`.
 *
 * @example createLogger('info').info({ buildHash }, 'bible build opened')
 */
export function createLogger(level: LevelWithSilent = 'info', destination: DestinationStream = stdoutWriter()): Logger {
  return pino(
    {
      level,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Keys can hide in any string (a path, an error message), not only in fields with known names.
      hooks: { streamWrite: scrubKeys },
    },
    destination,
  );
}

/**
 * Where `logger` writes and what every line of it starts with, for a line written by hand (the
 * access line, src/http/access-log.ts): its destination, its bindings as pino serialised them
 * once (`,"pid":…,"hostname":"…"`), and the function that scrubs keys from a finished line.
 */
export interface LineWriter {
  destination: DestinationStream;
  bindings: string;
  scrubKeys: (line: string) => string;
}

/** The destination and bindings of `logger` (pino keeps them under its symbols), for lines written without its object walk. */
export function lineWriter(logger: Logger): LineWriter {
  const internals = logger as unknown as Record<symbol, unknown>;
  return {
    destination: internals[pino.symbols.streamSym] as DestinationStream,
    bindings: (internals[pino.symbols.chindingsSym] as string | undefined) ?? '',
    scrubKeys,
  };
}

/** The fields of the access line (src/http/access-log.ts); none may be one of SECRET_FIELDS. */
export const ACCESS_LINE_FIELDS = ['requestId', 'method', 'path', 'ip', 'status', 'ms', 'apiKeyId'] as const;

/** Field names whose values the logger redacts, exported for the check that the access line holds none. */
export const REDACTED_FIELDS: readonly string[] = SECRET_FIELDS;

/**
 * Lines are written in batches of at least this many bytes (about 120 access lines): each write is a
 * hand-over to libuv's thread pool (a thread woken, then the loop woken back) and a system call.
 * At 8 kB that hand-over cost 1.7 to 2.5 µs per access line in the service's profile; at 32 kB,
 * 0.8 to 1.0 µs. What a batch holds waits at most LOG_FLUSH_INTERVAL_MS all the same.
 */
export const LOG_BATCH_BYTES = 32 * 1024;

/** A batch that has not filled is written after at most this long: a quiet service's lines still show at once to the eye. */
export const LOG_FLUSH_INTERVAL_MS = 200;

/**
 * Stdout, written asynchronously in batches: a line is appended to a buffer, and the buffer is
 * written off the event loop once it holds LOG_BATCH_BYTES, or LOG_FLUSH_INTERVAL_MS after the last
 * write at the latest. A synchronous write cost each request (the access log writes one line per
 * request) a system call, and a full pipe (its reader behind) made pino sleep 100 ms with the whole
 * service waiting. What is buffered is written out synchronously when the process exits, whatever
 * the cause (pino's exit hook: process.exit after SIGTERM or SIGINT in src/server.ts, an uncaught
 * error); only a SIGKILL loses it (test/http/logger-exit.test.ts).
 */
export function stdoutWriter(fd = 1): ReturnType<typeof pino.destination> {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
    maxLength: LOG_BUFFER_MAX_BYTES,
    // sonic-boom's default (16 kB) would split every batch; one write per batch.
    maxWrite: 2 * LOG_BATCH_BYTES,
    contentMode: 'buffer',
  });
  // Bytes, not text: given text, sonic-boom measures the whole pending batch (Buffer.byteLength of
  // a string it keeps appending to) on every line, so a line cost more the fuller the batch was:
  // 3.8 µs a line at 8 kB, against 1.9 µs as bytes, the line's own conversion included. Pino
  // hands its lines over as text, which become their UTF-8 bytes here.
  const writeBytes = destination.write.bind(destination);
  destination.write = (line: string) => writeBytes(Buffer.from(line, 'utf8') as unknown as string);
  return destination;
}

/** The line with every API key in it, in any encoding, replaced by `sk_live_[redacted]`. */
function scrubKeys(line: string): string {
  return MAYBE_KEY.test(line) ? line.replace(KEY_IN_TEXT, 'sk_live_[redacted]') : line;
}
