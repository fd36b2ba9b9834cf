// The MiniSearch indexes served by the service at /bible-search/{lang}.json: the tree's bytes in each encoding, the Bible's CORS and caching, loadable as documented.
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { staticPaths } from '../../build/contract/layout.ts';
import { loadSearchIndex, type SearchIndexFile } from '../../build/writers/search-index.ts';
import { useBibleServer } from '../helpers/bible-server.ts';
import { problemType } from '../helpers/problem.ts';
import { rawRequest } from './raw-request.ts';

const fixture = useBibleServer();

describe('GET /bible-search/{lang}.json', () => {
  test('sends the index file of the tree, br and gzip decompressing to the same bytes, with the Bible caching and CORS', async () => {
    const onDisk = fs.readFileSync(path.join(fixture.bible.publicDir, staticPaths.searchIndex('fr')));
    const url = `${fixture.server.url}/bible-search/fr.json`;
    const [identity, br, gzip] = await Promise.all([
      rawRequest(url),
      rawRequest(url, { 'accept-encoding': 'br, gzip' }),
      rawRequest(url, { 'accept-encoding': 'gzip' }),
    ]);
    expect(identity.body.equals(onDisk)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(onDisk)).toBe(true);
    expect(gunzipSync(gzip.body).equals(onDisk)).toBe(true);
    for (const res of [identity, br, gzip]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    }
    expect([br.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect((await rawRequest(url, { 'if-none-match': identity.headers.etag! })).status).toBe(304);
  });

  test('loads as documented and finds a verse whatever its case and accents', async () => {
    const file = (await rawRequest(`${fixture.server.url}/bible-search/fr.json`)).json() as SearchIndexFile;
    // The fixture's version hash is the build hash and the version's code (test/helpers/bible-fixture.ts).
    expect(file).toMatchObject({ lang: 'fr', version: 'LSG', versionHash: `${fixture.bible.buildHash}-LSG` });
    const hits = loadSearchIndex(file).search('ETERNEL');
    expect(hits.map((hit) => [hit.usfm, hit.chapter, hit.verse])).toEqual([['GEN', 1, 1]]);
  });

  test('answers a browser preflight; another file, language or method as on any other path', async () => {
    const preflight = await rawRequest(
      `${fixture.server.url}/bible-search/en.json`,
      { origin: 'https://reader.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    );
    expect([preflight.status, preflight.headers['access-control-allow-methods']]).toEqual([204, 'GET, HEAD']);
    for (const name of ['de.json', 'en.json.br', 'en', 'EN.json']) {
      const res = await rawRequest(`${fixture.server.url}/bible-search/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.json()).toMatchObject({ type: problemType('path-not-found') });
    }
    const post = await rawRequest(`${fixture.server.url}/bible-search/en.json`, {}, 'POST');
    expect([post.status, post.headers.allow, post.headers['access-control-allow-origin']]).toEqual([405, 'GET, HEAD', '*']);
  });
});
