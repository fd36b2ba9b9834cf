// Request ids and one access-log line per request: method, full path, client address, status, time, key id (never headers).
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { accessLogger, type Logger } from './logger.ts';

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Query parameters whose values are left out of the logged path, whatever they hold. */
const SECRET_PARAMETER = /^(?:key|api[_-]?key|access[_-]?token|token|password|secret)$/i;

export interface RequestLogOptions {
  /**
   * Paths whose successful answers are logged at debug rather than info: health probes, which a
   * load balancer sends every few seconds, would otherwise be most of the log. Their errors stay at info.
   */
  quietPaths?: readonly string[];
}

/**
 * Gives each request an id (a sane incoming X-Request-Id, else a new UUID) on res.locals and in the
 * response, and logs one `request` line when the response is finished. pino-http would do the same
 * but is not a dependency; this is the part of it the service needs.
 */
export function requestLog(logger: Logger, { quietPaths = [] }: RequestLogOptions = {}): RequestHandler {
  const quiet = new Set(quietPaths);
  const access = accessLogger(logger);
  return (req, res, next) => {
    const requestId = requestIdFor(req.get('x-request-id'));
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    res.on('finish', () => {
      const apiKeyId: unknown = res.locals.apiKeyId;
      const level = quiet.has(req.path) && res.statusCode < 400 ? 'debug' : 'info';
      access[level](
        {
          requestId,
          method: req.method,
          // originalUrl: the whole path and query as the client sent it (req.path loses the mount point).
          path: withoutSecretParameters(req.originalUrl),
          ip: req.ip,
          status: res.statusCode,
          // Whole microseconds, in ms.
          ms: Math.trunc((performance.now() - started) * 1000) / 1000,
          ...(typeof apiKeyId === 'number' ? { apiKeyId } : {}),
        },
        'request',
      );
    });
    next();
  };
}

/** The request's id: the incoming X-Request-Id when it is sane (1-100 of A-Z a-z 0-9 . _ -), else a new UUID. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The URL with the values of secret-named query parameters replaced. Keys elsewhere in the URL
 * (a path segment, another parameter) are scrubbed from the line by the logger itself.
 */
function withoutSecretParameters(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
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

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
