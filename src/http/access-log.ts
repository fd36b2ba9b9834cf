// Request ids and the one access line per request: method, full path, client address, status, time, key id (never headers).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type Logger, lineWriter } from './logger.ts';

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Query parameters whose values are left out of the logged path, whatever they hold. */
const SECRET_PARAMETER = /^(?:key|api[_-]?key|access[_-]?token|token|password|secret)$/i;

/** A query in which no name can be one of those (none holds these words, nothing is percent-encoded) is logged as it is, unread. */
const MAYBE_SECRET = /key|token|password|secret|%/i;

/** What the line of one request says; set as the request goes (the key id once the key is known). */
export interface AccessRecord {
  requestId: string;
  method: string | undefined;
  /** The path and query as the client sent them. */
  url: string;
  ip: string | undefined;
  /** performance.now() when the request arrived. */
  started: number;
  apiKeyId?: number;
  /** Logged at debug when successful: probes come every few seconds. */
  quiet?: boolean;
}

/**
 * The function that writes the `request` line of a finished response: the fields of
 * ACCESS_LINE_FIELDS in that order, the path with secret-named parameters' values left out, the
 * time in whole microseconds. The line is the one `logger.info({ …fields }, 'request')` writes,
 * byte for byte (test/http/access-log.test.ts), built by hand: its fields are fixed and none is a
 * secret name, so pino's generic walk of an object (and its redaction) could only cost time, a
 * large share of a church answer's. Keys anywhere in it (the path, the request id) are still
 * scrubbed by the logger's own function, field by field.
 *
 * @example const line = accessLine(logger); res.on('finish', () => line(record, res.statusCode));
 */
export function accessLine(logger: Logger): (record: AccessRecord, status: number) => void {
  const { destination, bindings, scrubKeys } = lineWriter(logger);
  const time = isoTime();
  // A key cannot run across a field's quotes (KEY_IN_TEXT takes letters, digits, `_` and `%`), so
  // scrubbing the fields a client wrote, and the fixed part once, scrubs the whole line.
  const fixed = scrubKeys(bindings);
  const text = (value: string) => jsonString(scrubKeys(value));
  return (record, status) => {
    const level = record.quiet && status < 400 ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const line =
      `{"level":"${level}","time":"${time()}"${fixed},"requestId":${text(record.requestId)}` +
      `${record.method === undefined ? '' : `,"method":${text(record.method)}`},"path":${text(withoutSecretParameters(record.url))}` +
      `${record.ip === undefined ? '' : `,"ip":${text(record.ip)}`},"status":${status},"ms":${milliseconds(performance.now() - record.started)}` +
      `${record.apiKeyId === undefined ? '' : `,"apiKeyId":${record.apiKeyId}`},"message":"request"}\n`;
    destination.write(line);
  };
}

/** The request's id: the incoming X-Request-Id when it is sane (1-100 of A-Z a-z 0-9 . _ -), else a new UUID. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && VALID_REQUEST_ID.test(value) ? value : randomUUID();
}

/** The id of the request `res` answers (its X-Request-Id, set by the dispatcher before anything else runs). */
export function requestIdOf(res: ServerResponse): string | undefined {
  const id = res.getHeader('X-Request-Id');
  return typeof id === 'string' ? id : undefined;
}

/**
 * The URL with the values of secret-named query parameters replaced. Keys elsewhere in the URL
 * (a path segment, another parameter) are scrubbed from the line by the logger itself.
 */
function withoutSecretParameters(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1 || !MAYBE_SECRET.test(url.slice(queryStart))) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      return SECRET_PARAMETER.test(safeDecode(pair.slice(0, equals))) ? `${pair.slice(0, equals)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** What JSON.stringify escapes in a string: `"`, `\\`, control characters and (lone) surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `value` as a JSON string, as JSON.stringify writes it; most values (ids, paths, addresses) need no escape. */
function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * A duration in milliseconds, truncated to whole microseconds, as JSON writes the number
 * (`0.035`, `12.5`, `3`): made from integers, which V8 turns into text far faster than a fraction.
 */
export function milliseconds(elapsed: number): string {
  const micros = Math.trunc(elapsed * 1000);
  // Up to 15 significant digits, the decimal is the shortest text of its double, as JSON's own.
  if (!(micros >= 0 && micros < 1e15)) return String(micros / 1000);
  const whole = Math.trunc(micros / 1000);
  return `${whole}${FRACTIONS[micros - whole * 1000]}`;
}

/** Thousandths as JSON writes them after the whole number: '' for 0, '.035' for 35, '.5' for 500. */
const FRACTIONS = Array.from({ length: 1000 }, (_, thousandths) =>
  thousandths === 0 ? '' : `.${String(thousandths).padStart(3, '0').replace(/0+$/, '')}`,
);

/**
 * The time as pino's isoTime writes it, made once per millisecond: under load many lines share
 * one, and a Date and its ISO string per line showed in the profile.
 */
function isoTime(): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
