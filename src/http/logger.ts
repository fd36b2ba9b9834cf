// Structured JSON logs on stdout; never given a key, a password or an Authorization header.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/** Field names whose values are replaced before a line is written, wherever they appear. */
const SECRET_FIELDS = /^(authorization|password|secret|token|key|apiKey|api_key|cookie)$/i;

/** A logger writing one JSON object per line to `write` (stdout by default). */
export function createLogger(
  level: LogLevel | 'silent' = 'info',
  write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
): Logger {
  const threshold = ORDER[level];
  const log = (lineLevel: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[lineLevel] < threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lineLevel, message, ...redact(fields) }));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    out[name] = SECRET_FIELDS.test(name) ? '[redacted]' : typeof value === 'string' ? value.replace(/sk_live_[A-Za-z0-9_]+/g, 'sk_live_[redacted]') : value;
  }
  return out;
}
