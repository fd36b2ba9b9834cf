// Test helper: how a Netlify-style static host answers a request from a public folder with `_redirects` and `_headers`.
import fs from 'node:fs';
import path from 'node:path';

/** One `_redirects` rule: `from [query conditions] to status`. */
export interface RedirectRule {
  from: string;
  query: Record<string, string>;
  to: string;
  status: number;
}

/** What the host does with a request. */
export interface StaticAnswer {
  status: number;
  /** The file served, relative to the public folder; undefined for a proxied or unanswered request. */
  file?: string;
  /** The origin URL a proxied request goes to. */
  proxiedTo?: string;
  /** Response headers from `_headers` (a header two matching rules set is joined with ", ", as the hosts do), plus the Content-Type the host gives the file. */
  headers: Record<string, string>;
}

/** Media types the hosts give files by extension. */
const TYPES_BY_EXTENSION: Record<string, string> = { '.json': 'application/json' };

/**
 * Reads `_redirects` and `_headers` of `publicDir` and answers requests as Netlify documents it:
 * a file at the request path is served as is; otherwise the first rule whose path pattern
 * (`:name` one segment, `*` the rest) and query conditions (`lang=en`, or `lang=:lang` for any
 * value) match rewrites or proxies; headers come from every `_headers` block matching the request path.
 */
export function staticHost(publicDir: string) {
  const rules = readRedirects(path.join(publicDir, '_redirects'));
  const headerBlocks = readHeaders(path.join(publicDir, '_headers'));
  const exists = (file: string) => fs.statSync(path.join(publicDir, file), { throwIfNoEntry: false })?.isFile() ?? false;

  function headersFor(requestPath: string, file: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const block of headerBlocks) {
      if (!globMatches(block.pattern, requestPath)) continue;
      for (const [name, value] of block.headers) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const type = file && TYPES_BY_EXTENSION[path.extname(file)];
    if (type && !('content-type' in headers)) headers['content-type'] = type;
    return headers;
  }

  return {
    rules,
    headerBlocks,
    answer(url: string): StaticAnswer {
      const { pathname, searchParams } = new URL(url, 'https://static.example');
      const direct = pathname.slice(1);
      if (exists(direct)) return { status: 200, file: direct, headers: headersFor(pathname, direct) };
      for (const rule of rules) {
        const params = pathMatches(rule.from, pathname);
        if (!params || !queryMatches(rule.query, searchParams)) continue;
        const target = rule.to.replace(/:(\w+)/g, (_, name: string) => params[name] ?? `:${name}`);
        if (/^https?:/.test(target)) return { status: rule.status, proxiedTo: target, headers: {} };
        const file = target.slice(1);
        if (!exists(file)) continue;
        return { status: rule.status, file, headers: headersFor(pathname, file) };
      }
      return { status: 404, headers: headersFor(pathname, undefined) };
    },
  };
}

function readRedirects(file: string): RedirectRule[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const fields = line.split(/\s+/);
      const from = fields[0];
      const status = Number(fields.at(-1));
      const to = fields.at(-2)!;
      const query = Object.fromEntries(fields.slice(1, -2).map((condition) => condition.split('=') as [string, string]));
      return { from, query, to, status };
    });
}

function readHeaders(file: string): { pattern: string; headers: [string, string][] }[] {
  const blocks: { pattern: string; headers: [string, string][] }[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) blocks.push({ pattern: line.trim(), headers: [] });
    else {
      const colon = line.indexOf(':');
      blocks.at(-1)!.headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  }
  return blocks;
}

function pathMatches(pattern: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return '(.*)';
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const match = new RegExp(`^${source}$`).exec(pathname);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, match[index + 1]]));
}

function queryMatches(conditions: Record<string, string>, query: URLSearchParams): boolean {
  return Object.entries(conditions).every(([name, value]) => (value.startsWith(':') ? query.has(name) : query.get(name) === value));
}

function globMatches(pattern: string, pathname: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(pathname);
}
