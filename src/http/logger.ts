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

/**
 * Bytes of lines the stdout writer may hold while the reader (journald, a pipe) is behind; past
 * it, new lines are dropped rather than memory growing or the service waiting on its log.
 */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Lines are written to stdout once this many bytes wait (about 20 access lines), or every
 * LOG_FLUSH_MS, whichever comes first, as nginx's `access_log … buffer= flush=` does. One write per
 * line cost each request a round trip through libuv's thread pool (a thread woken, a write, the
 * event loop woken): measured, 35 µs of the service's 80 µs of CPU per static chapter.
 */
export const LOG_BATCH_BYTES = 4096;

/** The longest a line waits in the buffer when traffic is too light to fill a batch. */
export const LOG_FLUSH_MS = 100;

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
 * The logger for the access line (one per request): the same destination, level, format and
 * key scrubbing as `logger`, without the field-name redaction. The access line's fields are fixed
 * (ACCESS_LINE_FIELDS) and none of them is a secret name, so redaction could only ever walk it:
 * pino's wildcard redaction cost about 40 µs a line, more than the rest of a church answer.
 * Keys in the path are still replaced, by the scrubbing hook, which children keep.
 */
export function accessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/** The fields of the access line (src/http/access-log.ts); none may be one of SECRET_FIELDS. */
export const ACCESS_LINE_FIELDS = ['requestId', 'method', 'path', 'ip', 'status', 'ms', 'apiKeyId'] as const;

/** Field names whose values the logger redacts, exported for the check that the access line holds none. */
export const REDACTED_FIELDS: readonly string[] = SECRET_FIELDS;

/**
 * Stdout, written asynchronously: a line is appended to a buffer, and the buffer is written off the
 * event loop while requests go on; under load, the lines logged during one write go out together in
 * the next. A synchronous write cost each request (the access log writes one line per request) a
 * system call, and a full pipe (its reader behind) made pino sleep 100 ms with the whole service
 * waiting. Lines leave in batches (LOG_BATCH_BYTES, or after LOG_FLUSH_MS at most). What is buffered
 * is written out synchronously when the process exits, whatever the cause (pino's exit hook); only a
 * SIGKILL loses it (at most the last LOG_FLUSH_MS of lines).
 */
function stdoutWriter(): DestinationStream {
  return pino.destination({
    dest: 1,
    sync: false,
    maxLength: LOG_BUFFER_MAX_BYTES,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
}

/** The line with every API key in it, in any encoding, replaced by `sk_live_[redacted]`. */
function scrubKeys(line: string): string {
  return line.replace(KEY_IN_TEXT, 'sk_live_[redacted]');
}
