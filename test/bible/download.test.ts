// A version's download over real HTTP: listed in versions with a size and SHA-256 that match the bytes served, every chapter inside, each encoding the same file.
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import type { DownloadBody, VersionsResponse } from '../../build/contract/response-schemas.ts';
import { writeBibleBuild } from '../helpers/bible-fixture.ts';
import { useBibleServer } from '../helpers/bible-server.ts';
import { problemType } from '../helpers/problem.ts';
import { syntheticVersions } from '../helpers/synthetic-model.ts';
import { rawRequest } from './raw-request.ts';

// The source's re-check clock stands still: during the rebuild below, only what the service notices
// itself (a file of the new tree) makes it look again, however long the rebuild takes.
const fixture = useBibleServer(undefined, { bible: { now: () => 0 } });

const api = (pathAndQuery: string) => `${fixture.server.url}/api/v1/bible${pathAndQuery}`;
const versions = async () => ((await rawRequest(api('/versions'))).json() as VersionsResponse).versions;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('GET /download', () => {
  test.each(LANGS)('in %s: versions gives its URL, and its size and SHA-256 are those of the bytes served', async (lang) => {
    const entry = (await versions()).find((version) => version.lang === lang)!;
    expect(entry.download.url).toBe(`/api/v1/bible/download?lang=${lang}`);
    const res = await rawRequest(`${fixture.server.url}${entry.download.url}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBe(entry.download.bytes);
    expect(Number(res.headers['content-length'])).toBe(entry.download.bytes);
    expect(sha256(res.body)).toBe(entry.download.sha256);
  });

  test.each(LANGS)('in %s: the file holds the version, the books list and every chapter exactly as the API answers them', async (lang) => {
    const body = (await rawRequest(api(`/download?lang=${lang}`))).json() as DownloadBody;
    const { download: _link, ...version } = (await versions()).find((entry) => entry.lang === lang)!;
    expect(body.version).toEqual(version);
    const books = (await rawRequest(api(`/books?lang=${lang}`))).json() as { books: DownloadBody['books'] };
    expect(body.books).toEqual(books.books);
    // Every chapter of every book, in canonical order, is there, and is the chapter endpoint's body.
    const expected = books.books.flatMap((book) =>
      book.verseCounts.flatMap((last, index) => (last > 0 ? [`${book.usfm} ${index + 1}`] : [])),
    );
    expect(body.chapters.map((chapter) => `${chapter.book.usfm} ${chapter.chapter}`)).toEqual(expected);
    expect(body.chapters).toHaveLength(version.chapters);
    for (const chapter of body.chapters) {
      const served = await rawRequest(api(`/${chapter.book.usfm}/${chapter.chapter}?lang=${lang}`));
      expect(chapter).toEqual(served.json());
    }
    expect(body.chapters.flatMap((chapter) => chapter.verses)).toHaveLength(version.verses);
  });

  test('br and gzip are the same file compressed, each with its own ETag; 304 and HEAD as for any file of the tree', async () => {
    const identity = await rawRequest(api('/download?lang=en'));
    const br = await rawRequest(api('/download?lang=en'), { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await rawRequest(api('/download?lang=en'), { 'accept-encoding': 'gzip' });
    expect([br.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    // The identity ETag is the base64url SHA-256 of the file, as for every file of the tree.
    expect(identity.headers.etag).toBe(`"${createHash('sha256').update(identity.body).digest('base64url')}"`);
    expect(br.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-br"`);
    expect(gzip.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-gzip"`);
    for (const res of [identity, br, gzip]) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
    const notModified = await rawRequest(api('/download?lang=en'), { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect([notModified.status, notModified.body.length, notModified.headers.etag]).toEqual([304, 0, br.headers.etag]);
    const head = await rawRequest(api('/download?lang=en'), { 'accept-encoding': 'gzip' }, 'HEAD');
    expect([head.status, head.body.length, head.headers['content-length'], head.headers.etag]).toEqual([
      200,
      0,
      String(gzip.body.length),
      gzip.headers.etag,
    ]);
  });

  test('the default language is fr; an unknown one answers 400 naming lang', async () => {
    const fr = await rawRequest(api('/download'));
    expect((fr.json() as DownloadBody).version.code).toBe('LSG');
    const bad = await rawRequest(api('/download?lang=de'));
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ parameter: 'lang' });
  });

  test('through a rebuild: never the new file beside the old build (503 bible-rebuilding), then the new file, size and hash', async () => {
    const before = (await versions()).find((entry) => entry.lang === 'nl')!.download;
    expect((await rawRequest(`${fixture.server.url}${before.url}`)).status).toBe(200);
    const changed = syntheticVersions();
    changed[4]!.text.books[0]!.chapters[0]!.verses[0]!.text = 'Een andere tekst.';
    await writeBibleBuild(fixture.bible.publicDir, fixture.bible.databasePath, changed, 'test-build-2');
    const during = await rawRequest(`${fixture.server.url}${before.url}`);
    expect(during.status).toBe(503);
    expect(during.json()).toMatchObject({ type: problemType('bible-rebuilding') });
    const after = (await versions()).find((entry) => entry.lang === 'nl')!.download;
    expect(after.sha256).not.toBe(before.sha256);
    const res = await rawRequest(`${fixture.server.url}${after.url}`);
    expect([res.body.length, sha256(res.body)]).toEqual([after.bytes, after.sha256]);
    expect(res.body.toString('utf8')).toContain('Een andere tekst.');
  });
});
