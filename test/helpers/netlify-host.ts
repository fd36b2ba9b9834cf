// Test helper: a public folder answered by Netlify's own routing code (@netlify/redirect-parser and netlify-redirector, as `netlify dev` uses them).
import fs from 'node:fs';
import path from 'node:path';
import { parseAllRedirects } from '@netlify/redirect-parser';
import redirector from 'netlify-redirector';

/** What Netlify does with a request. */
export interface NetlifyAnswer {
  status: number;
  /** The file served, relative to the public folder; undefined when proxied or when nothing is there. */
  file?: string;
  /** The URL a proxy rule sends the request to. */
  proxiedTo?: string;
  /** The rule that matched, as written in `_redirects` (its `from`), if any. */
  rule?: string;
}

/** A rule as @netlify/redirect-parser gives it (its types leave it unknown). */
interface ParsedRule {
  from: string;
  query: Record<string, string>;
  to: string;
  status?: number;
  force: boolean;
  proxy?: boolean;
  conditions: Record<string, unknown>;
  headers?: Record<string, string>;
  path?: string;
}

/** The parts of a rule netlify-redirector reads (what `netlify dev` hands over: `origin`, `params`, capitalised conditions). */
interface MatcherRule {
  origin: string;
  path?: string;
  params: Record<string, string>;
  to: string;
  status?: number;
  force: boolean;
  conditions: Record<string, unknown>;
  headers: Record<string, string>;
  proxy?: boolean;
}

interface Match {
  from: string;
  to: string;
  status: number;
  force: boolean;
}

/**
 * Reads `publicDir/_redirects` with Netlify's parser (its errors are returned, not thrown) and answers
 * requests as Netlify does: a file at the request path is served as it is (a rule does not shadow
 * it unless forced); otherwise the first matching rule decides, a full URL being proxied and a path
 * served with the rule's status, or the host's own 404 when that file does not exist.
 *
 * @example const host = await netlifyHost(dir); host.answer('/api/v1/bible/John/3?lang=en').file
 */
export async function netlifyHost(publicDir: string) {
  const parsed = await parseAllRedirects({ redirectsFiles: [path.join(publicDir, '_redirects')], configRedirects: [], minimal: false });
  const redirects = parsed.redirects as ParsedRule[];
  const errors = parsed.errors as unknown[];
  const rules: MatcherRule[] = redirects.map(({ from, query, conditions, ...rest }) => ({
    ...rest,
    origin: from,
    params: query,
    headers: rest.headers ?? {},
    conditions: Object.fromEntries(Object.entries(conditions).map(([name, value]) => [name[0]!.toUpperCase() + name.slice(1), value])),
  }));
  const matcher = await redirector.parseJSON(JSON.stringify(rules), {});
  const exists = (file: string) => fs.statSync(path.join(publicDir, file), { throwIfNoEntry: false })?.isFile() ?? false;
  return {
    /** How many rules Netlify read, and what it refused (with the line and the reason). */
    ruleCount: redirects.length,
    errors: errors.map(String),
    answer(url: string): NetlifyAnswer {
      const { pathname, search } = new URL(url, 'https://site.example');
      const match = matcher.match({
        scheme: 'https',
        host: 'site.example',
        path: pathname,
        query: search.slice(1),
        getHeader: () => '',
        getCookie: () => '',
      }) as Match | null;
      if (exists(pathname.slice(1)) && !match?.force) return { status: 200, file: pathname.slice(1) };
      if (!match) return { status: 404 };
      const status = match.status ?? 301;
      if (/^https?:/.test(match.to)) return { status, proxiedTo: match.to, rule: match.from };
      const file = new URL(match.to, 'https://site.example').pathname.slice(1);
      return exists(file) ? { status, file, rule: match.from } : { status: 404, rule: match.from };
    },
  };
}

type NetlifyHost = Awaited<ReturnType<typeof netlifyHost>>;

/** One request and what the service answers it with, as a Netlify host can say it. */
export interface NetlifyCase {
  url: string;
  status: number;
  /** The file holding the service's body (a chapter, or the problem of its error). */
  file?: string;
  proxiedTo?: string;
}

/**
 * The requests a Netlify host can tell apart, walked over the built tree (each language's
 * books.json): every chapter route of every book in every language, by abbreviation and USFM code
 * as written, lower- and upper-case, with its `lang` and (the default language) without; an
 * unknown book and another language's abbreviation in each language (sent to the service); an unknown `lang`; the
 * books and download of each language; and the routes only the service answers, proxied.
 * What the service answers is spelled out here from the tree's own lists, not from the rules.
 */
export function netlifyCases(publicDir: string, origin: string): NetlifyCase[] {
  const { versions } = JSON.parse(fs.readFileSync(path.join(publicDir, 'api/v1/bible/versions.json'), 'utf8')) as {
    versions: { lang: string }[];
  };
  const langs = versions.map((version) => version.lang);
  const cases: NetlifyCase[] = [];
  for (const lang of langs) {
    const { books } = JSON.parse(fs.readFileSync(path.join(publicDir, `api/v1/bible/${lang}/books.json`), 'utf8')) as {
      books: { usfm: string; abbr: string; chapters: number }[];
    };
    const queries = lang === langs[0] ? [`?lang=${lang}`, ''] : [`?lang=${lang}`];
    for (const query of queries) {
      cases.push(
        { url: `/api/v1/bible/books${query}`, status: 200, file: `api/v1/bible/${lang}/books.json` },
        { url: `/api/v1/bible/download${query}`, status: 200, file: `api/v1/bible/${lang}/download.json` },
        // A book name the rules do not list goes to the service (its 301 for another name, its 404 for an unknown book).
        { url: `/api/v1/bible/Xyz/3${query}`, status: 200, proxiedTo: `${origin}/api/v1/bible/Xyz/3` },
      );
      for (const book of books) {
        for (const spelling of new Set([book.abbr, book.abbr.toLowerCase(), book.abbr.toUpperCase(), book.usfm, book.usfm.toLowerCase()])) {
          for (const chapter of new Set([1, book.chapters])) {
            cases.push({
              url: `/api/v1/bible/${spelling}/${chapter}${query}`,
              status: 200,
              file: `api/v1/bible/${lang}/${book.usfm}/${chapter}.json`,
            });
          }
        }
      }
      // Another language's abbreviation that this one does not list goes to the service too.
      for (const other of langs.filter((candidate) => candidate !== lang)) {
        const { books: theirs } = JSON.parse(fs.readFileSync(path.join(publicDir, `api/v1/bible/${other}/books.json`), 'utf8')) as {
          books: { abbr: string }[];
        };
        const foreign = theirs.find(
          (book) => !books.some((mine) => [mine.abbr, mine.usfm].some((name) => name.toLowerCase() === book.abbr.toLowerCase())),
        );
        if (foreign)
          cases.push({
            url: `/api/v1/bible/${foreign.abbr}/1${query}`,
            status: 200,
            proxiedTo: `${origin}/api/v1/bible/${foreign.abbr}/1`,
          });
      }
    }
  }
  for (const url of [
    '/api/v1/bible/books?lang=xx',
    '/api/v1/bible/download?lang=de',
    '/api/v1/bible/GEN/1?lang=xx',
    '/api/v1/bible/Xyz/1?lang=xx',
  ]) {
    cases.push({ url, status: 400, file: 'api/v1/bible/_errors/unknown-lang.json' });
  }
  cases.push({ url: '/api/v1/bible/versions', status: 200, file: 'api/v1/bible/versions.json' });
  for (const url of ['/api/v1/bible/GEN/1/1/3', '/api/v1/bible/GEN/1/2', '/api/v1/bible/passage', '/api/v1/bible/search']) {
    cases.push({ url: `${url}?lang=${langs.at(-1)}`, status: 200, proxiedTo: `${origin}${url}` });
  }
  return cases;
}

/** Each case the host answers otherwise, as one line saying what it got; empty when all agree. */
export function netlifyMismatches(host: NetlifyHost, cases: readonly NetlifyCase[]): string[] {
  const mismatches: string[] = [];
  for (const expected of cases) {
    const got = host.answer(expected.url);
    if (got.status !== expected.status || got.file !== expected.file || got.proxiedTo !== expected.proxiedTo) {
      mismatches.push(
        `${expected.url}: ${got.status} ${got.file ?? got.proxiedTo ?? '(host 404)'} (rule ${got.rule}), not ${expected.status} ${expected.file ?? expected.proxiedTo}`,
      );
    }
  }
  return mismatches;
}
