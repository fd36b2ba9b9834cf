// Host rewrites: which files each static host gets (--host), the nginx config, Netlify-style _redirects and _headers; Pages' and Vercel's files come from their own writers.

import { BIBLE_PREFIX, type BibleRoute, bibleRoutes } from '../contract/bible-routes.ts';
import { CANON, LANGS, type Lang } from '../contract/books.ts';
import {
  ALLOWED_METHODS,
  BIBLE_CACHE_CONTROL,
  BIBLE_CORS_HEADERS,
  BIBLE_PREFLIGHT_HEADERS,
  DEFAULT_PUBLIC_BASE_URL,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_HEADERS,
  REQUEST_HEADERS_LIST,
} from '../contract/http-policy.ts';
import { staticPaths } from '../contract/layout.ts';
import { type Problem, problemBody, problems } from '../contract/problems.ts';
import { PAGES_ROUTES_PATH, PAGES_WORKER_PATH, pagesWorker } from './pages-worker.ts';
import type { OutputFile } from './types.ts';
import { VERCEL_CONFIG_PATH, vercelConfig } from './vercel-config.ts';

/**
 * Why ranges and search are proxied, not prerendered: endpoint 12 has one answer per
 * (chapter, from, to), about two million files for five versions; search is open-ended.
 * The service answers both from the database, and the rules below send them to it.
 */
const PROXY_DECISION = [
  'Chapters, books, versions and downloads are static files of this tree (same bytes the service sends).',
  'Ranges (endpoint 12), one verse, passages and search (endpoint 13) are NOT prerendered:',
  'one file per (chapter, from, to) would be about two million files, and passages and',
  'search are open-ended. They are proxied to the service, which answers them from the',
  'database (var/bible.sqlite).',
];

/**
 * What nginx tells the service about the client on proxied requests (ranges, verses, passages,
 * search), so the per-address limit counts clients, not the proxy. X-Forwarded-For is *set* to
 * the address nginx saw, not appended to ($proxy_add_x_forwarded_for): a header the client made
 * up never reaches the service, so even a TRUST_PROXY that trusts one hop too many cannot be
 * fooled. The service must trust exactly this proxy (TRUST_PROXY=1, or its address). Behind
 * another proxy or CDN, set nginx's real_ip module (set_real_ip_from, real_ip_header) so that
 * $remote_addr is the client again.
 */
export const FORWARDED_HEADERS = [
  'proxy_set_header X-Forwarded-For $remote_addr;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
  'proxy_set_header Host $host;',
] as const;

/** The Content-Type of the service's JSON answers (Express adds the charset), which nginx copies. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The folder of the search indexes in the public tree (`bible-search/{lang}.json`). */
const SEARCH_INDEX_DIR = staticPaths.searchIndex('fr').split('/')[0];

/** Where the http-level part of the nginx config goes (beside the server-level snippet). */
export const NGINX_MAPS_PATH = 'nginx-bible-maps.conf';

/** Netlify-style response headers: `_redirects` cannot set any, so caching and CORS go here. */
export const HEADERS_PATH = '_headers';

/** Problem+json bodies the hosts serve for errors they detect themselves, relative to the public dir. */
export const errorPaths = {
  unknownLang: 'api/v1/bible/_errors/unknown-lang.json',
  unknownBook: (lang: Lang) => `api/v1/bible/_errors/${lang}/unknown-book.json`,
  unknownChapter: (lang: Lang) => `api/v1/bible/_errors/${lang}/unknown-chapter.json`,
  methodNotAllowed: 'api/v1/bible/_errors/method-not-allowed.json',
} as const;

/**
 * The static hosts the build writes files for. `--host` names one, for a folder uploaded to that host
 * alone, or `all` (the default): the public folder the service and nginx serve, with every host's files.
 */
export const STATIC_HOSTS = ['nginx', 'netlify', 'pages', 'vercel'] as const;
export type StaticHost = (typeof STATIC_HOSTS)[number];
export const HOST_TARGETS = ['all', ...STATIC_HOSTS] as const;
export type HostTarget = (typeof HOST_TARGETS)[number];

/**
 * What each host reads of the files made here, and whether it wants the `.br` and `.gz` copies of
 * the tree. nginx sends the copies (gzip_static, and the service reads them too); Netlify,
 * Cloudflare Pages and Vercel compress on their own and would only count the copies as files to
 * upload (Pages allows 20,000 per site on the free plan; the copies are three fifths of the full
 * tree's 19,790 files). Pages reads `_redirects` and `_headers` as well, but refuses the query
 * conditions and proxies of the former, and its `_worker.js` sets every header itself: a folder for
 * Pages holds neither. Only the rules of nginx and `_redirects` point at the problem files.
 */
const HOST_FILES: Record<StaticHost, { files: readonly string[]; errorFiles: boolean; precompressed: boolean }> = {
  nginx: { files: [NGINX_MAPS_PATH, staticPaths.nginx], errorFiles: true, precompressed: true },
  netlify: { files: [staticPaths.redirects, HEADERS_PATH], errorFiles: true, precompressed: false },
  pages: { files: [PAGES_WORKER_PATH, PAGES_ROUTES_PATH], errorFiles: false, precompressed: false },
  vercel: { files: [VERCEL_CONFIG_PATH], errorFiles: false, precompressed: false },
};

/** The hosts a `--host` value stands for. */
export function hostsOf(target: HostTarget): readonly StaticHost[] {
  return target === 'all' ? STATIC_HOSTS : [target];
}

/**
 * The files at the root of the folder that the hosts of `target` read, and whether the tree gets its
 * `.br` and `.gz` copies: the build writes these and removes the other hosts' (HOST_ROOT_FILES).
 *
 * @example hostOutputs('pages') // { rootFiles: ['_worker.js', '_routes.json'], precompressed: false }
 */
export function hostOutputs(target: HostTarget): { rootFiles: string[]; precompressed: boolean } {
  const hosts = hostsOf(target).map((host) => HOST_FILES[host]);
  return { rootFiles: hosts.flatMap((host) => host.files), precompressed: hosts.some((host) => host.precompressed) };
}

/** Every file at the root of the folder that some host reads. */
export const HOST_ROOT_FILES: readonly string[] = STATIC_HOSTS.flatMap((host) => HOST_FILES[host].files);

/**
 * Reads a `--host` value: one of HOST_TARGETS, in any case.
 *
 * @example parseHostTarget('Pages') // 'pages'
 */
export function parseHostTarget(raw: string): HostTarget {
  const target = raw.trim().toLowerCase();
  if (!(HOST_TARGETS as readonly string[]).includes(target)) throw new Error(`must be one of ${HOST_TARGETS.join(', ')}; got "${raw}"`);
  return target as HostTarget;
}

export interface HostRewriteOptions {
  /** Origin of the service for proxied routes in `_redirects` ("https://api.example.org"). */
  origin: string;
  /**
   * The service's public address: problem `type` URIs point at its `/docs/problems` page, as the
   * service's own do (build option `--public-url`, same as the service's PUBLIC_BASE_URL).
   */
  publicBaseUrl: string;
  /** Languages that have a version in this build, in the spec's order; the first is the default. */
  langs?: readonly Lang[];
  /** The hosts to write files for (HOST_TARGETS); every host's when not given. */
  target?: HostTarget;
}

/** The folder of the search indexes (staticPaths.searchIndex), which the service serves at the same path. */
/** Placeholder origin used when the build is given none. */
export const DEFAULT_ORIGIN = 'https://bible-api.invalid';

/**
 * What the files for static hosts hold when the build fell back to a placeholder: `_redirects`,
 * `_worker.js` and `vercel.json` proxying to DEFAULT_ORIGIN (no `--origin`), and the error files that `_redirects`,
 * `_headers` and nginx serve naming their problem types at the loopback address (no `--public-url`
 * nor PUBLIC_BASE_URL). One line each, for the build to print, about the files of the hosts it
 * writes for (`host`, every host's when not given); none when both were given.
 *
 * @example for (const line of placeholderWarnings({ origin: undefined, publicUrl: 'https://api.example.org' })) console.warn(line);
 */
export function placeholderWarnings(
  given: { origin?: string; publicUrl?: string; host?: HostTarget },
  loopbackUrl = DEFAULT_PUBLIC_BASE_URL,
): string[] {
  const hosts = hostsOf(given.host ?? 'all');
  const proxying = [
    ...(hosts.includes('netlify') ? [staticPaths.redirects] : []),
    ...(hosts.includes('pages') ? [PAGES_WORKER_PATH] : []),
    ...(hosts.includes('vercel') ? [VERCEL_CONFIG_PATH] : []),
  ];
  const warnings: string[] = [];
  if (given.origin === undefined && proxying.length > 0) {
    warnings.push(
      `${listed(proxying)} send${proxying.length === 1 ? 's' : ''} ranges, search and passages to the placeholder ${DEFAULT_ORIGIN}: give --origin with the service's address ` +
        '(https://api.example.org) before publishing on Netlify, Cloudflare Pages or Vercel (nginx needs none: it uses upstream bible_api).',
    );
  }
  if (given.publicUrl === undefined && hosts.some((host) => HOST_FILES[host].errorFiles)) {
    warnings.push(
      `The error files for static hosts (api/v1/bible/_errors/, which ${staticPaths.redirects}, ${HEADERS_PATH} and nginx serve) name their problem types at ` +
        `${loopbackUrl}/docs/problems: give --public-url, or PUBLIC_BASE_URL, with the service's public address.`,
    );
  }
  return warnings;
}

/**
 * The nginx snippets, `_redirects`, and the problem+json files they point at.
 *
 * nginx: include `nginx-bible-maps.conf` in the `http` block (maps cannot live in `server`),
 * `nginx-bible.conf` in the `server` block whose `root` is the public folder, and define
 * `upstream bible_api` pointing at the service.
 */
export function hostRewrites(options: HostRewriteOptions): OutputFile[] {
  const langs = options.langs ?? LANGS;
  const hosts = hostsOf(options.target ?? 'all');
  return [
    ...(hosts.includes('nginx')
      ? [
          { path: NGINX_MAPS_PATH, content: nginxMaps(langs) },
          { path: staticPaths.nginx, content: nginxServer() },
        ]
      : []),
    ...(hosts.includes('netlify')
      ? [
          { path: staticPaths.redirects, content: redirects(langs, options.origin) },
          { path: HEADERS_PATH, content: netlifyHeaders() },
        ]
      : []),
    ...(hosts.includes('pages') ? pagesWorker(langs, options.origin) : []),
    ...(hosts.includes('vercel') ? vercelConfig(langs, options.origin) : []),
    ...(hosts.some((host) => HOST_FILES[host].errorFiles) ? problemFiles(langs, options.publicBaseUrl) : []),
  ];
}

/** "a", "a and b", "a, b and c". */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The errors a static host detects itself, as the service's catalogue words them (without the request's own values). */
function problemFiles(langs: readonly Lang[], publicBaseUrl: string): OutputFile[] {
  const file = (path: string, problem: Problem): OutputFile => ({ path, content: JSON.stringify(problemBody(problem, publicBaseUrl)) });
  const files: OutputFile[] = [
    file(errorPaths.unknownLang, problems.unknownLanguage(langs)),
    file(errorPaths.methodNotAllowed, problems.methodNotAllowed()),
  ];
  for (const lang of langs) {
    files.push(
      file(errorPaths.unknownBook(lang), problems.unknownBibleBook(lang)),
      file(errorPaths.unknownChapter(lang), problems.chapterNotInBook(lang)),
    );
  }
  return files;
}

/** Per language, abbreviation and USFM code pattern → USFM; abbreviations first, as `resolveBook` does. */
function nginxMaps(langs: readonly Lang[]): string {
  const lines = [
    '# Generated by the Bible build (build/writers/host-rewrites.ts). Do not edit.',
    '# Include in the nginx `http` block; include nginx-bible.conf in the `server` block.',
    ...PROXY_DECISION.map((line) => `# ${line}`),
    '# Also define the service: upstream bible_api { server 127.0.0.1:3000; }',
    '',
    '# ?lang= → language of the tree; absent means the default, anything else is a 400.',
    'map $arg_lang $bible_lang {',
    `    ""    ${langs[0]};`,
    ...langs.map((lang) => `    ${lang}    ${lang};`),
    '    default "";',
    '}',
    '',
    '# "<lang>:<abbr or USFM>" → USFM code, case-insensitively; empty when unknown.',
    'map "$bible_lang:$bible_book" $bible_usfm {',
    '    volatile;',
  ];
  for (const lang of langs) {
    for (const book of CANON) {
      lines.push(`    "~*^${lang}:${escapeRegex(book.names[lang].abbr)}$"    ${book.usfm};`);
    }
  }
  for (const book of CANON) lines.push(`    "~*^[a-z]+:${book.usfm}$"    ${book.usfm};`);
  lines.push('    default "";', '}', '', ...preflightMaps());
  return lines.join('\n');
}

/**
 * A CORS preflight, as the service reads one (src/bible/cors.ts): OPTIONS with an Origin,
 * Access-Control-Request-Method GET or HEAD, and requested headers absent or a list of header
 * names. $bible_preflight is 1 for one; the header values are empty otherwise, and nginx sends
 * no header whose value is empty.
 */
function preflightMaps(): string[] {
  const allowedMethods = ALLOWED_METHODS.join('|');
  const preflightValue = (variable: string, value: string) => [
    `map $bible_preflight ${variable} {`,
    `    1    "${value}";`,
    '    default "";',
    '}',
  ];
  return [
    '# CORS preflight on the static Bible paths: 1 when the request is one.',
    'map "$request_method|$http_access_control_request_method" $bible_preflight_method {',
    `    "~^OPTIONS\\|(${allowedMethods})$"    1;`,
    '    default "";',
    '}',
    'map $http_access_control_request_headers $bible_preflight_headers_valid {',
    '    ""    1;',
    `    "~${REQUEST_HEADERS_LIST.source.replace(/"/g, '\\"')}"    1;`,
    '    default "";',
    '}',
    'map "$bible_preflight_method:$bible_preflight_headers_valid:$http_origin" $bible_preflight {',
    '    "~^1:1:."    1;',
    '    default "";',
    '}',
    ...preflightValue('$bible_preflight_allow_methods', BIBLE_PREFLIGHT_HEADERS['Access-Control-Allow-Methods']!),
    ...preflightValue('$bible_preflight_max_age', BIBLE_PREFLIGHT_HEADERS['Access-Control-Max-Age']!),
    ...preflightValue('$bible_preflight_allow_headers', '$http_access_control_request_headers'),
    '',
  ];
}

/**
 * Server-level locations, one per Bible route (build/contract/bible-routes.ts): a file of the tree
 * where the route names one, the service otherwise, and the service for every error. An error nginx detects (unknown book or chapter, bad `lang`, another
 * method, a raw tree path) is handed to the service (`error_page … = @bible_service`), which
 * answers it with its own problem, naming the values the client sent: byte for byte what a client
 * of the service alone gets. The static problem files are for `_redirects` hosts, which have no
 * such fallback.
 */
function nginxServer(): string {
  const methodGuard = `        if ($request_method !~ ^(${ALLOWED_METHODS.join('|')})$) { return 405; }`;
  const staticHeaders = [
    // The service's own Content-Type (Express adds the charset): the same bytes on both.
    `        default_type "${JSON_CONTENT_TYPE}";`,
    '        types { }',
    '        gzip_static on;',
    ...addHeaders('        ', { ...BIBLE_CORS_HEADERS, 'Cache-Control': BIBLE_CACHE_CONTROL, Vary: 'Accept-Encoding' }),
    // Empty, hence not sent, unless the request is a preflight (see preflightMaps).
    '        add_header Access-Control-Allow-Methods $bible_preflight_allow_methods always;',
    '        add_header Access-Control-Allow-Headers $bible_preflight_allow_headers always;',
    '        add_header Access-Control-Max-Age $bible_preflight_max_age always;',
    // Before the method guard: a preflight is the one OPTIONS that is answered.
    '        if ($bible_preflight) { return 204; }',
  ];
  // `=`: the service's status, not the one nginx detected.
  const guards = ['        error_page 400 404 405 = @bible_service;', methodGuard];
  // The client's address as nginx saw it, never a list the client sent: see FORWARDED_HEADERS.
  const proxyToService = ['        proxy_pass http://bible_api;', ...FORWARDED_HEADERS.map((line) => `        ${line}`)];
  return [
    '# Generated by the Bible build (build/writers/host-rewrites.ts). Do not edit.',
    '# Include in the `server` block whose root is the public folder; needs nginx-bible-maps.conf',
    '# in the `http` block and an `upstream bible_api` (the service).',
    ...PROXY_DECISION.map((line) => `# ${line}`),
    '',
    '# Errors nginx detects are answered by the service, with its own problem+json body.',
    'location @bible_service {',
    ...proxyToService,
    '}',
    '',
    ...Object.entries(bibleRoutes).flatMap(([name, route]) => nginxLocation(name, route, staticHeaders, guards, proxyToService)),
    '# The routes the service answers that have parameters (ranges, one verse), preflights on them, the',
    '# raw paths of the tree (not an API: the service answers them as it does), and anything else under',
    '# the prefix (malformed numbers, other methods): the service answers, with its own errors.',
    `location ${BIBLE_PREFIX}/ {`,
    ...proxyToService,
    '}',
    '',
    "# The MiniSearch indexes, for client-side search: JSON, with the Bible's caching and CORS.",
    // Only {lang}.json: a precompressed copy's own name is not a URL of the service, which answers it 404.
    `location ~ "^/${SEARCH_INDEX_DIR}/(${LANGS.join('|')})\\.json$" {`,
    ...staticHeaders,
    ...guards,
    '}',
    `location /${SEARCH_INDEX_DIR}/ {`,
    ...proxyToService,
    '}',
    '',
  ].join('\n');
}

/** The nginx pattern of each path parameter a route of the tree may have, and the variable it sets. */
const NGINX_PARAMETERS: Readonly<Record<string, string>> = {
  // Abbreviation or USFM code, any case: $bible_usfm maps it (nginxMaps).
  abbr: '(?<bible_book>[A-Za-z0-9]+)',
  chapter: '(?<bible_chapter>[1-9][0-9]{0,2})',
};

/**
 * The location of one route: a file of the tree (`try_files` the route's file, with the language,
 * book and chapter nginx read), or, for a route only the service answers, a proxy when its path is
 * exact (one with parameters falls to the prefix's location, which proxies too).
 */
function nginxLocation(name: string, route: BibleRoute, staticHeaders: string[], guards: string[], proxy: string[]): string[] {
  const parameters = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  if (route.tree === undefined) {
    return parameters.length > 0 ? [] : [`# ${name}: answered by the service.`, `location = ${route.path} {`, ...proxy, '}', ''];
  }
  const file = route.tree('$bible_lang', '$bible_usfm', '$bible_chapter');
  const checks = [
    ...(route.lang ? ['        if ($bible_lang = "") { return 400; }'] : []),
    ...(parameters.includes('abbr') ? ['        if ($bible_usfm = "") { return 404; }'] : []),
  ];
  const pattern = parameters.reduce((path, parameter) => {
    const nginxPattern = NGINX_PARAMETERS[parameter];
    if (nginxPattern === undefined) throw new Error(`${route.path}: no static rule reads {${parameter}}`);
    return path.replace(`{${parameter}}`, nginxPattern);
  }, route.path);
  return [
    `# ${name}: a file of the tree${parameters.includes('abbr') ? '; abbreviation or USFM code, any case' : ''}.`,
    parameters.length === 0 ? `location = ${route.path} {` : `location ~ "^${pattern}$" {`,
    ...staticHeaders,
    ...guards,
    ...checks,
    `        try_files /${file} =404;`,
    '}',
    '',
  ];
}

/** A route's path as a `_redirects` rule writes it: `{abbr}` is `:book`, any other `{name}` is `:name`. */
function redirectPath(route: BibleRoute): string {
  return route.path.replace('{abbr}', ':book').replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * Netlify-style `_redirects`, from the Bible's routes. Netlify applies the first rule that matches
 * (checked with its own parser and matcher, test/build/writers/netlify-redirects.test.ts), so the
 * order says which error wins, as the service's checks do (lang, then book): the files of the
 * tree without a language and the routes only the service answers (proxied) first; then per
 * language the rules with `lang=<code>` followed by that language's unknown-book 404; then a
 * catch-all `lang=:lang` answering 400; then the rules without `lang` (default language) and its
 * unknown-book 404. Paths there are case-sensitive, so each abbreviation and USFM code is listed
 * as written, lower- and upper-case.
 */
function redirects(langs: readonly Lang[], origin: string): string {
  const proxy = origin.replace(/\/+$/, '');
  const routes = Object.values(bibleRoutes) as BibleRoute[];
  const tree = routes.filter((route) => route.tree !== undefined);
  const byLang = tree.filter((route) => route.lang);
  const lines = [
    '# Generated by the Bible build (build/writers/host-rewrites.ts). Do not edit.',
    ...PROXY_DECISION.map((line) => `# ${line}`),
    `# Proxied to the origin given at build time (--origin): ${proxy}`,
    '',
    ...tree.filter((route) => !route.lang).map((route) => `${route.path}  /${route.tree!('', '', '')}  200`),
    ...routes.filter((route) => route.tree === undefined).map((route) => `${redirectPath(route)}  ${proxy}${redirectPath(route)}  200`),
    '',
  ];
  /** The rules of one language's files: one per path, or per spelling of each book for a path with {abbr}. */
  const rules = (lang: Lang, query: string): string[] =>
    byLang.flatMap((route) => {
      const condition = query ? `  ${query}` : '';
      if (!route.path.includes('{abbr}')) return [`${route.path}${condition}  /${route.tree!(lang, '', '')}  200`];
      return CANON.flatMap((book) =>
        spellings(book.names[lang].abbr, book.usfm).map(
          (spelling) => `${redirectPath(route).replace(':book', spelling)}${condition}  /${route.tree!(lang, book.usfm, ':chapter')}  200`,
        ),
      );
    });
  /**
   * Any other book name in the lang the query condition names, before any broader rule: the service,
   * which knows every name of a book (another name answers 301 to its abbreviation's URL) and names the
   * book or chapter it lacks (404).
   */
  const unknownBook = (query: string): string[] =>
    byLang
      .filter((route) => route.path.includes('{abbr}'))
      .map((route) => `${redirectPath(route)}${query ? `  ${query}` : ''}  ${proxy}${redirectPath(route)}  200`);
  for (const lang of langs) {
    lines.push(
      `# lang=${lang}, then any other book name (the service).`,
      ...rules(lang, `lang=${lang}`),
      ...unknownBook(`lang=${lang}`),
      '',
    );
  }
  lines.push(
    '# Any other lang is a 400.',
    ...byLang.map((route) => `${redirectPath(route)}  lang=:lang  /${errorPaths.unknownLang}  400`),
    '',
    `# No lang: the default, ${langs[0]}, then any other book name (the service).`,
    ...rules(langs[0], ''),
    ...unknownBook(''),
    '',
  );
  return lines.join('\n');
}

/**
 * Netlify-style `_headers` (Netlify, Cloudflare Pages): the Bible's caching and CORS, as the
 * service sends them. Such hosts match these rules by request path, and a header two matching
 * rules both set is sent with both values joined, so no two rules here set the same header for
 * one path: Content-Type is set only where it differs from what the host already gives a `.json`
 * file (application/json): on the problem files. They cannot echo a preflight's requested
 * headers, so they allow any (`*`: every header but Authorization, for requests without
 * credentials, which is all the Bible takes).
 */
function netlifyHeaders(): string {
  const base = BIBLE_PREFIX;
  const block = (path: string, headers: Record<string, string>) => [
    path,
    ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`),
  ];
  const cors = {
    ...BIBLE_CORS_HEADERS,
    ...BIBLE_PREFLIGHT_HEADERS,
    'Access-Control-Allow-Headers': '*',
  };
  return [
    '# Generated by the Bible build (build/writers/host-rewrites.ts). Do not edit.',
    ...block(`${base}/*`, { ...cors, 'Cache-Control': BIBLE_CACHE_CONTROL }),
    ...block(`${base}/_errors/*`, { ...PROBLEM_HEADERS, 'Content-Type': PROBLEM_CONTENT_TYPE }),
    ...block(`/${SEARCH_INDEX_DIR}/*`, { ...cors, 'Cache-Control': BIBLE_CACHE_CONTROL, 'Content-Type': JSON_CONTENT_TYPE }),
    '',
  ].join('\n');
}

/** `add_header` lines (sent on errors too: `always`); values must not hold a double quote. */
function addHeaders(indent: string, headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => {
    if (value.includes('"')) throw new Error(`header ${name} cannot be written into nginx: ${value}`);
    return `${indent}add_header ${name} "${value}" always;`;
  });
}

/** The spellings a case-sensitive host must list: as written, lower-case, upper-case; abbr first. */
function spellings(abbr: string, usfm: string): string[] {
  return [...new Set([abbr, abbr.toLowerCase(), abbr.toUpperCase(), usfm, usfm.toLowerCase()])];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
