// Vercel: the `vercel.json` whose rewrites map the Bible's URLs, `lang` query included, onto the tree and send the rest to the service.
import { BIBLE_PREFIX, type BibleRoute, bibleRoutes } from '../contract/bible-routes.ts';
import { CANON, type Lang } from '../contract/books.ts';
import { BIBLE_CACHE_CONTROL, BIBLE_CORS_HEADERS, BIBLE_PREFLIGHT_HEADERS } from '../contract/http-policy.ts';
import { staticPaths } from '../contract/layout.ts';
import type { OutputFile } from './types.ts';

/** The file Vercel reads at the root of the deployed folder. */
export const VERCEL_CONFIG_PATH = 'vercel.json';

/** One entry of `rewrites` in `vercel.json`, as Vercel's docs and @vercel/routing-utils read it. */
export interface VercelRewrite {
  source: string;
  destination: string;
  has?: { type: 'query'; key: string; value?: string }[];
  missing?: { type: 'query'; key: string }[];
}

/** One entry of `headers` in `vercel.json`. */
export interface VercelHeaders {
  source: string;
  headers: { key: string; value: string }[];
}

/** The folder of the search indexes in the public tree (`bible-search/{lang}.json`). */
const SEARCH_INDEX_DIR = staticPaths.searchIndex('fr').split('/')[0];

/** The chapter numbers a file of the tree may have; any other (`01`, `0`) goes to the service, which names the error. */
const CHAPTER_PATTERN = '[1-9][0-9]?[0-9]?';

/**
 * `vercel.json`, from the Bible's routes (build/contract/bible-routes.ts). Vercel applies the first
 * rewrite that matches, after the folder's own files, and matches a rewrite's path without regard
 * to case, so one rule per book (abbreviation or USFM code) serves any case; a `has` condition
 * matches the query's `lang` exactly (lower-case only, as on Netlify). The order says which answer
 * wins, as the service's checks do: the files without a language and the routes only the service
 * answers (proxied to `origin`); then per language the rules with `lang=<code>` followed by that
 * language's other book names, sent to the service (its 301 or 404); then any other `lang`, sent to
 * the service (its 400); then the rules without `lang` (the default language) and its other book
 * names. A rewrite cannot set a status, so every error is the service's own answer, except a
 * chapter past the end of a book, which matches the book's rule: the host's 404.
 * `headers` gives the Bible's paths the service's CORS and caching.
 */
export function vercelConfig(langs: readonly Lang[], origin: string): OutputFile[] {
  const proxy = origin.replace(/\/+$/, '');
  const routes = Object.values(bibleRoutes) as BibleRoute[];
  const tree = routes.filter((route) => route.tree !== undefined);
  const byLang = tree.filter((route) => route.lang);
  const withBook = byLang.filter((route) => route.path.includes('{abbr}'));
  const toService = (route: BibleRoute, conditions: Partial<VercelRewrite>): VercelRewrite => ({
    source: sourcePath(route.path),
    destination: `${proxy}${sourcePath(route.path)}`,
    ...conditions,
  });
  const toFile = (path: string, destination: string, conditions: Partial<VercelRewrite>): VercelRewrite => ({
    source: path,
    destination,
    ...conditions,
  });
  /** A language's files: one rule per path, or per book for a path with {abbr}, then its other book names to the service. */
  const rules = (lang: Lang, conditions: Partial<VercelRewrite>): VercelRewrite[] => [
    ...byLang.flatMap((route) => {
      if (!route.path.includes('{abbr}')) return [toFile(route.path, `/${route.tree!(lang, '', '')}`, conditions)];
      return CANON.map((book) => {
        const abbr = book.names[lang].abbr;
        // Vercel matches a path without regard to case (a route may ask otherwise: caseSensitive); the spellings
        // Netlify needs are listed all the same, so that these rules do not depend on it.
        const names = [...new Set([abbr, abbr.toLowerCase(), abbr.toUpperCase(), book.usfm, book.usfm.toLowerCase()])];
        const source = sourcePath(route.path, { book: `(${names.join('|')})`, chapter: `(${CHAPTER_PATTERN})` });
        return toFile(source, `/${route.tree!(lang, book.usfm, ':chapter')}`, conditions);
      });
    }),
    ...withBook.map((route) => toService(route, conditions)),
  ];
  const rewrites: VercelRewrite[] = [
    ...tree.filter((route) => !route.lang).map((route) => toFile(route.path, `/${route.tree!('', '', '')}`, {})),
    ...routes.filter((route) => route.tree === undefined).map((route) => toService(route, {})),
    ...langs.flatMap((lang) => rules(lang, { has: [{ type: 'query', key: 'lang', value: lang }] })),
    ...byLang.map((route) => toService(route, { has: [{ type: 'query', key: 'lang' }] })),
    ...rules(langs[0]!, { missing: [{ type: 'query', key: 'lang' }] }),
  ];
  const cors = { ...BIBLE_CORS_HEADERS, ...BIBLE_PREFLIGHT_HEADERS, 'Access-Control-Allow-Headers': '*' };
  const headers: VercelHeaders[] = [
    { source: `${BIBLE_PREFIX}/(.*)`, headers: headerList({ ...cors, 'Cache-Control': BIBLE_CACHE_CONTROL }) },
    { source: `/${SEARCH_INDEX_DIR}/(.*)`, headers: headerList({ ...cors, 'Cache-Control': BIBLE_CACHE_CONTROL }) },
  ];
  // JSON holds no comment: docs/static-hosts.md says the file is generated, by build/writers/vercel-config.ts.
  return [{ path: VERCEL_CONFIG_PATH, content: `${JSON.stringify({ rewrites, headers }, null, 2)}\n` }];
}

/** A route's path as a Vercel `source`: `{abbr}` is `:book`, any other `{name}` is `:name`, each with its pattern when given. */
function sourcePath(path: string, patterns: { book?: string; chapter?: string } = {}): string {
  return path
    .replace('{abbr}', `:book${patterns.book ?? ''}`)
    .replace('{chapter}', `:chapter${patterns.chapter ?? ''}`)
    .replace(/\{([^}]+)\}/g, ':$1');
}

function headerList(headers: Record<string, string>): { key: string; value: string }[] {
  return Object.entries(headers).map(([key, value]) => ({ key, value }));
}
