// Test helper: a public folder's vercel.json turned into routes by Vercel's own routing library (@vercel/routing-utils), and requests answered by those routes.
import fs from 'node:fs';
import path from 'node:path';
import { getTransformedRoutes, type Route } from '@vercel/routing-utils';
import type { NetlifyCase } from './netlify-host.ts';

/** What Vercel does with a request: the file served, or the URL it is sent to, or its own 404. */
export interface VercelAnswer {
  status: number;
  file?: string;
  /** The origin's URL without its query (Vercel passes the request's query on). */
  proxiedTo?: string;
  /** The headers the config adds to the answer. */
  headers: Record<string, string>;
  /** The `src` of the route that decided. */
  rule?: string;
}

/**
 * Reads `publicDir/vercel.json` with `getTransformedRoutes`, the function the Vercel CLI and
 * builders use to check the file and turn it into the platform's routes (its error is returned),
 * and answers a request by those routes as Vercel documents them: the routes before the
 * `filesystem` handle (the config's headers) add their headers and go on; then a file at the
 * request path is served as it is; then the first rewrite whose `src` matches (without regard to
 * case, unless the route says otherwise) and whose `has` and `missing` query conditions hold
 * (a `has` value is a regular expression the whole value must match) decides: a full URL is
 * proxied, a path is served when its file exists (`check`), else the host's 404.
 *
 * @example const host = vercelHost(dir); host.answer('/api/v1/bible/John/3?lang=en').file
 */
export function vercelHost(publicDir: string) {
  const config = JSON.parse(fs.readFileSync(path.join(publicDir, 'vercel.json'), 'utf8'));
  const { routes, error } = getTransformedRoutes(config);
  const exists = (file: string) => fs.statSync(path.join(publicDir, file), { throwIfNoEntry: false })?.isFile() ?? false;
  const all = (routes ?? []) as (Route & Record<string, unknown>)[];
  const filesystem = all.findIndex((route) => route.handle === 'filesystem');
  const before = all.slice(0, filesystem);
  const rewrites = all.slice(filesystem + 1);
  return {
    error,
    routes: all,
    rewriteCount: rewrites.length,
    answer(url: string): VercelAnswer {
      const { pathname, searchParams } = new URL(url, 'https://site.example');
      const headers: Record<string, string> = {};
      for (const route of before) {
        if (typeof route.src === 'string' && matchSource(route, pathname)) Object.assign(headers, route.headers ?? {});
      }
      if (exists(pathname.slice(1))) return { status: 200, file: pathname.slice(1), headers };
      for (const route of rewrites) {
        if (typeof route.src !== 'string' || typeof route.dest !== 'string') continue;
        const match = matchSource(route, pathname);
        if (!match) continue;
        const captured = conditionsHold(route, searchParams);
        if (!captured) continue;
        const dest = route.dest
          .replace(/\$(\d+)/g, (_, index: string) => match[Number(index)] ?? '')
          .replace(/\$([a-zA-Z_]\w*)/g, (_, name: string) => captured[name] ?? match.groups?.[name] ?? '');
        const target = new URL(dest, 'https://site.example');
        if (/^https?:/.test(dest)) return { status: 200, proxiedTo: `${target.origin}${target.pathname}`, headers, rule: route.src };
        const file = target.pathname.slice(1);
        return exists(file) ? { status: 200, file, headers, rule: route.src } : { status: 404, headers, rule: route.src };
      }
      return { status: 404, headers };
    },
  };
}

function matchSource(route: Route & Record<string, unknown>, pathname: string): RegExpExecArray | null {
  return new RegExp(route.src as string, route.caseSensitive === true ? '' : 'i').exec(pathname);
}

/** The values the route's `has` conditions capture (a key without a value captures the query's value), or undefined when one fails. */
function conditionsHold(route: Route & Record<string, unknown>, query: URLSearchParams): Record<string, string> | undefined {
  const captured: Record<string, string> = {};
  for (const condition of (route.has ?? []) as { type: string; key: string; value?: string }[]) {
    if (condition.type !== 'query') return undefined;
    const value = query.get(condition.key);
    if (value === null) return undefined;
    if (condition.value === undefined) {
      captured[condition.key] = value;
      continue;
    }
    const match = new RegExp(`^(?:${condition.value})$`).exec(value);
    if (!match) return undefined;
    Object.assign(captured, match.groups ?? {});
  }
  for (const condition of (route.missing ?? []) as { type: string; key: string }[]) {
    if (condition.type === 'query' && query.has(condition.key)) return undefined;
  }
  return captured;
}

/**
 * What Vercel should answer for Netlify's cases (netlifyCases): the same file for every book, case
 * and language; where Netlify answers an unknown `lang` with its static 400, Vercel sends it to the
 * service (a rewrite sets no status), which answers its own 400.
 */
export function vercelCases(cases: readonly NetlifyCase[], origin: string): NetlifyCase[] {
  return cases.map((one) =>
    one.status === 400 ? { url: one.url, status: 200, proxiedTo: `${origin}${new URL(one.url, 'https://site.example').pathname}` } : one,
  );
}

/** Each case the host answers otherwise, as one line saying what it got; empty when all agree. */
export function vercelMismatches(host: ReturnType<typeof vercelHost>, cases: readonly NetlifyCase[]): string[] {
  return cases.flatMap((expected) => {
    const got = host.answer(expected.url);
    return got.status === expected.status && got.file === expected.file && got.proxiedTo === expected.proxiedTo
      ? []
      : [
          `${expected.url}: ${got.status} ${got.file ?? got.proxiedTo ?? '(host 404)'} (rule ${got.rule}), not ${expected.file ?? expected.proxiedTo}`,
        ];
  });
}
