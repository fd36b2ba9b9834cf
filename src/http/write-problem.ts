// A problem written on Node's own response, for the handlers in front of Express (src/bible/fast-path.ts, src/church/fast-path.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, PROBLEM_HEADERS } from '../../build/contract/http-policy.ts';
import { type Problem, problemBody } from '../../build/contract/problems.ts';

/**
 * A problem as the app's error handler sends one (src/http/errors.ts sendProblem): the `leading`
 * headers (name/value pairs: request id, CORS, rate limit), then its own, problem+json, no body for HEAD.
 */
export function writeProblem(
  req: IncomingMessage,
  res: ServerResponse,
  problem: Problem,
  leading: readonly string[],
  publicBaseUrl: string,
): void {
  for (let i = 0; i < leading.length; i += 2) res.setHeader(leading[i] as string, leading[i + 1] as string);
  for (const [name, value] of Object.entries({ ...PROBLEM_HEADERS, ...problem.headers })) res.setHeader(name, value);
  const body = JSON.stringify(problemBody(problem, publicBaseUrl));
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.statusCode = problem.status;
  res.end(req.method === 'HEAD' ? undefined : body);
}
