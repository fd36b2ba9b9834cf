// The generated _redirects: rule order, the proxy origin, and the problem files the rules point at.
import { describe, expect, it } from 'vitest';
import { errorPaths, hostRewrites } from '../../../build/writers/host-rewrites.ts';

const files = hostRewrites({ origin: 'https://api.example.org/' });
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

  it('writes the problem+json files it points at', () => {
    const unknownLang = JSON.parse(String(files.find((file) => file.path === errorPaths.unknownLang)!.content));
    expect(unknownLang).toMatchObject({ status: 400, parameter: 'lang', detail: expect.stringContaining('fr, en, es, pt, nl') });
    expect(files.some((file) => file.path === errorPaths.unknownBook('nl'))).toBe(true);
  });
});
