// The generated _redirects and _headers: rule order, the proxy origin, the headers, and the problem files the rules point at.
import { describe, expect, it } from 'vitest';
import {
  errorPaths,
  HEADERS_PATH,
  HOST_ROOT_FILES,
  type HostTarget,
  hostRewrites,
  parseHostTarget,
} from '../../../build/writers/host-rewrites.ts';

const files = hostRewrites({ origin: 'https://api.example.org/', publicBaseUrl: 'https://api.example.org' });
const content = (path: string) => String(files.find((file) => file.path === path)!.content);
const redirects = String(files.find((file) => file.path === '_redirects')!.content).split('\n');
const indexOf = (rule: string) => redirects.findIndex((line) => line.replace(/\s+/g, ' ') === rule);

describe('_redirects', () => {
  it('tries each known lang, then answers any other lang with 400, then falls back to French', () => {
    const en = indexOf('/api/v1/bible/books lang=en /api/v1/bible/en/books.json 200');
    const unknown = indexOf('/api/v1/bible/books lang=:lang /api/v1/bible/_errors/unknown-lang.json 400');
    const fallback = indexOf('/api/v1/bible/books /api/v1/bible/fr/books.json 200');
    expect(en).toBeGreaterThan(0);
    expect(unknown).toBeGreaterThan(en);
    expect(fallback).toBeGreaterThan(unknown);
  });

  it('maps each download to its file the same way: lang, then any other lang 400, then French', () => {
    const en = indexOf('/api/v1/bible/download lang=en /api/v1/bible/en/download.json 200');
    const unknown = indexOf('/api/v1/bible/download lang=:lang /api/v1/bible/_errors/unknown-lang.json 400');
    const fallback = indexOf('/api/v1/bible/download /api/v1/bible/fr/download.json 200');
    expect(en).toBeGreaterThan(0);
    expect(unknown).toBeGreaterThan(en);
    expect(fallback).toBeGreaterThan(unknown);
    for (const lang of ['fr', 'es', 'pt', 'nl']) {
      expect(indexOf(`/api/v1/bible/download lang=${lang} /api/v1/bible/${lang}/download.json 200`)).toBeGreaterThan(0);
    }
  });

  it('maps abbreviations in their usual, lower and upper case, and USFM codes, to the chapter file', () => {
    for (const spelling of ['Gn', 'gn', 'GN', 'GEN', 'gen']) {
      expect(indexOf(`/api/v1/bible/${spelling}/:chapter lang=fr /api/v1/bible/fr/GEN/:chapter.json 200`)).toBeGreaterThan(0);
    }
  });

  it('proxies ranges and search to the origin given at build time', () => {
    expect(indexOf('/api/v1/bible/search https://api.example.org/api/v1/bible/search 200')).toBeGreaterThan(0);
    expect(
      indexOf('/api/v1/bible/:book/:chapter/:from/:to https://api.example.org/api/v1/bible/:book/:chapter/:from/:to 200'),
    ).toBeGreaterThan(0);
  });

  it('proxies passages and single verses to the origin given at build time', () => {
    expect(indexOf('/api/v1/bible/passage https://api.example.org/api/v1/bible/passage 200')).toBeGreaterThan(0);
    expect(indexOf('/api/v1/bible/:book/:chapter/:verse https://api.example.org/api/v1/bible/:book/:chapter/:verse 200')).toBeGreaterThan(
      0,
    );
  });

  it("writes the problem+json files it points at, typed by the service's problem page", () => {
    const unknownLang = JSON.parse(content(errorPaths.unknownLang));
    expect(unknownLang).toEqual({
      type: 'https://api.example.org/docs/problems#unknown-language',
      title: 'Unknown Bible language',
      status: 400,
      detail: 'lang must be one of fr, en, es, pt, nl (default fr).',
      parameter: 'lang',
    });
    expect(JSON.parse(content(errorPaths.unknownBook('nl')))).toMatchObject({
      type: 'https://api.example.org/docs/problems#bible-book-not-found',
      title: 'Unknown Bible book',
      status: 404,
      parameter: 'abbr',
    });
    expect(JSON.parse(content(errorPaths.unknownChapter('en')))).toMatchObject({
      type: 'https://api.example.org/docs/problems#bible-chapter-not-found',
      title: 'Unknown Bible chapter',
      status: 404,
      parameter: 'chapter',
    });
    expect(JSON.parse(content(errorPaths.methodNotAllowed))).toMatchObject({
      type: 'https://api.example.org/docs/problems#method-not-allowed',
      title: 'Method not allowed',
      status: 405,
    });
  });

  it('never names a placeholder host in the problem types', () => {
    for (const file of files.filter((candidate) => candidate.path.includes('/_errors/'))) {
      expect(JSON.parse(String(file.content)).type).toMatch(/^https:\/\/api\.example\.org\/docs\/problems#[a-z-]+$/);
    }
  });
});

describe('_headers', () => {
  it('gives Bible paths and search indexes the caching and CORS headers the service sends, and error bodies nosniff', () => {
    const bibleHeaders = [
      '  Access-Control-Allow-Origin: *',
      '  Access-Control-Expose-Headers: ETag, Retry-After, RateLimit, RateLimit-Policy',
      '  Access-Control-Allow-Methods: GET, HEAD',
      '  Access-Control-Max-Age: 86400',
      '  Access-Control-Allow-Headers: *',
      '  Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
    ];
    expect(content(HEADERS_PATH).split('\n')).toEqual([
      '# Generated by the Bible build (build/writers/host-rewrites.ts). Do not edit.',
      '/api/v1/bible/*',
      ...bibleHeaders,
      '/api/v1/bible/_errors/*',
      '  X-Content-Type-Options: nosniff',
      '  Content-Type: application/problem+json',
      '/bible-search/*',
      ...bibleHeaders,
      '  Content-Type: application/json; charset=utf-8',
      '',
    ]);
  });
});

describe('nginx server snippet', () => {
  it("sets X-Forwarded-For to the address nginx saw (never passing on the client's own) and X-Forwarded-Proto, wherever it proxies", () => {
    const server = content('nginx-bible.conf');
    const proxied = server.split('proxy_pass http://bible_api;').slice(1);
    // Search, passages, parallel, references, the verse of the day, the rest of the prefix, other paths
    // under the search indexes' folder, and the errors nginx hands over.
    expect(proxied).toHaveLength(8);
    for (const after of proxied) {
      const location = after.slice(0, after.indexOf('}'));
      expect(location).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
      expect(location).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    }
    expect(server).not.toContain('$proxy_add_x_forwarded_for');
  });

  it('sends the Bible Cache-Control with stale-while-revalidate', () => {
    expect(content('nginx-bible.conf')).toContain(
      'add_header Cache-Control "public, max-age=86400, stale-while-revalidate=604800" always;',
    );
  });
});

describe('the files for one host (--host)', () => {
  const rootFiles = (target: HostTarget) =>
    hostRewrites({ origin: 'https://api.example.org', publicBaseUrl: 'https://api.example.org', target })
      .map((file) => file.path)
      .filter((path) => !path.includes('/'))
      .sort();

  it("writes each host's own files at the root, every host's for all, and the problem files only where a rule serves them", () => {
    expect(rootFiles('all')).toEqual([...HOST_ROOT_FILES].sort());
    expect(rootFiles('nginx')).toEqual(['nginx-bible-maps.conf', 'nginx-bible.conf']);
    expect(rootFiles('netlify')).toEqual(['_headers', '_redirects']);
    expect(rootFiles('pages')).toEqual(['_routes.json', '_worker.js']);
    expect(rootFiles('vercel')).toEqual(['vercel.json']);
    const pages = hostRewrites({ origin: 'https://api.example.org', publicBaseUrl: 'https://api.example.org', target: 'pages' });
    expect(pages.filter((file) => file.path.startsWith('api/v1/bible/_errors/'))).toEqual([]);
    const netlify = hostRewrites({ origin: 'https://api.example.org', publicBaseUrl: 'https://api.example.org', target: 'netlify' });
    expect(netlify.map((file) => file.path)).toContain(errorPaths.unknownBook('nl'));
  });

  it('reads --host in any case and refuses another host, naming the ones it knows', () => {
    expect(parseHostTarget('Pages')).toBe('pages');
    expect(parseHostTarget('vercel')).toBe('vercel');
    expect(() => parseHostTarget('github')).toThrow('must be one of all, nginx, netlify, pages, vercel; got "github"');
  });
});
