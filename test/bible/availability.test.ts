// A Bible that is not built, or whose tree and database come from different builds, answers 503; the church API does not care.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { staticPaths } from '../../build/contract/layout.ts';
import { writeDatabase } from '../../build/writers/database.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type BibleFixture, buildBibleFixture, writeBibleBuild } from '../helpers/bible-fixture.ts';
import { problemType } from '../helpers/problem.ts';
import { syntheticVersions } from '../helpers/synthetic-model.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function serverWith(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer({ DEMO_DATA: 'false', ...env }, options);
  cleanups.push(() => server.close());
  return server;
}

async function fixture(buildHash?: string): Promise<BibleFixture> {
  const bible = await buildBibleFixture(undefined, buildHash);
  cleanups.push(() => bible.remove());
  return bible;
}

/**
 * The clock the Bible source measures its re-check interval (10 s) on, moved only by the test:
 * a build is looked at again when the test says the interval has passed, never because the
 * machine was slow, and never sooner.
 */
function sourceClock(): { now: () => number; advance: (ms: number) => void } {
  let ms = 0;
  return { now: () => ms, advance: (by) => void (ms += by) };
}

const BIBLE_PATHS = ['/versions', '/books', '/books?lang=en', '/Gn/1', '/Gn/1/1/2', '/search?q=terre'];

async function expectUnavailable(server: TestServer, reason: RegExp): Promise<void> {
  for (const biblePath of BIBLE_PATHS) {
    const res = await rawRequest(`${server.url}/api/v1/bible${biblePath}`);
    expect(res.status, biblePath).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json() as { type: string; title: string; status: number; detail: string };
    expect(body.status).toBe(503);
    expect(body.title).toBe('Bible not built');
    expect(body.type).toBe(problemType('bible-not-built'));
    expect(body.detail).toContain('BIBLE_SOURCES_DIR=');
    expect(body.detail).toContain('npm run build:bible');
    expect(body.detail).toMatch(reason);
  }
}

describe('Bible availability', () => {
  test('not built: every Bible endpoint answers 503 with the build hint, while church endpoints still work', async () => {
    const server = await serverWith();
    await expectUnavailable(server, /not been built/);
    // Bad input is still checked only once the Bible is there: 503 wins over 400.
    expect((await rawRequest(`${server.url}/api/v1/bible/books?lang=xx`)).status).toBe(503);

    // The church API answers as usual: the key is checked and the slug looked up.
    const key = await createTestKey(server.services);
    const churchPath = '/api/public/v1/churches/no-such-church';
    const church = await rawRequest(`${server.url}${churchPath}`, { authorization: `Bearer ${key}` });
    expect(church.status).toBe(404);
    expect(church.headers['access-control-allow-origin']).toBeUndefined();
    const noKey = await rawRequest(`${server.url}${churchPath}`);
    expect(noKey.status).toBe(401);
  });

  test('a tree and a database from different builds answer 503 naming both builds', async () => {
    const tree = await fixture('build-a');
    const database = await fixture('build-b');
    const server = await serverWith({ BIBLE_PUBLIC_DIR: tree.publicDir, BIBLE_DB_PATH: database.databasePath });
    await expectUnavailable(server, /build-a.*build-b/);
    expect(server.logs.some((line) => line.includes('bible unavailable'))).toBe(true);
  });

  test('a tree of another schema version answers 503', async () => {
    const bible = await fixture();
    const stampFile = path.join(bible.publicDir, staticPaths.stamp);
    const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(stampFile, JSON.stringify({ ...stamp, schemaVersion: 999 }));
    const server = await serverWith(bible.env);
    await expectUnavailable(server, /schema version 999/);
  });

  test('a build that lands while the server runs is picked up without restart, and a rebuild reopens', async () => {
    const clock = sourceClock();
    const server = await serverWith({}, { bible: { now: clock.now } });
    await expectUnavailable(server, /not been built/);
    const publicDir = path.join(server.dir, 'public');
    const databasePath = path.join(server.dir, 'bible.sqlite');
    await writeBibleBuild(publicDir, databasePath, syntheticVersions(), 'landed-1');
    // Not looked at again within the interval: still the answer of the last look.
    await expectUnavailable(server, /not been built/);
    // The source looks again at most every 10 s; move its clock rather than wait.
    clock.advance(11_000);
    const versions = await rawRequest(`${server.url}/api/v1/bible/versions`);
    expect(versions.status).toBe(200);
    expect(server.services.bible.status()).toEqual({ available: true, buildHash: 'landed-1' });

    const renamed = syntheticVersions();
    renamed[0].text.books[0].chapters[0].verses[0].text = 'Nouveau texte du premier verset.';
    await writeBibleBuild(publicDir, databasePath, renamed, 'landed-2');
    clock.advance(11_000);
    const range = (await rawRequest(`${server.url}/api/v1/bible/Gn/1/1/1`)).json() as { verses: { text: string }[] };
    expect(range.verses[0].text).toBe('Nouveau texte du premier verset.');
    const chapter = (await rawRequest(`${server.url}/api/v1/bible/Gn/1`)).json() as { verses: { text: string }[] };
    expect(chapter.verses[0].text).toBe('Nouveau texte du premier verset.');
    expect(server.services.bible.status()).toEqual({ available: true, buildHash: 'landed-2' });
  });

  test('while a rebuild has swapped the database but not yet the tree, the open build keeps being served', async () => {
    const bible = await fixture('old-build');
    const clock = sourceClock();
    const server = await serverWith(bible.env, { bible: { now: clock.now } });
    const firstVerse = async () =>
      ((await rawRequest(`${server.url}/api/v1/bible/Gn/1/1/1`)).json() as { verses: { text: string }[] }).verses[0].text;
    const original = await firstVerse();

    const changed = syntheticVersions();
    changed[0].text.books[0].chapters[0].verses[0].text = 'Texte de la nouvelle version.';
    await writeDatabase(bible.databasePath, changed, 'new-build');
    clock.advance(11_000);
    expect(await firstVerse()).toBe(original);
    expect(server.services.bible.status()).toEqual({ available: true, buildHash: 'old-build' });

    await writeBibleBuild(bible.publicDir, bible.databasePath, changed, 'new-build');
    clock.advance(11_000);
    expect(await firstVerse()).toBe('Texte de la nouvelle version.');
    expect(server.services.bible.status()).toEqual({ available: true, buildHash: 'new-build' });
  });

  test('search through a rebuild: 503 bible-rebuilding while only the database has moved, the new build once the tree has', async () => {
    const bible = await fixture('old-build');
    const clock = sourceClock();
    const server = await serverWith(bible.env, { bible: { now: clock.now } });
    const search = (q: string) => rawRequest(`${server.url}/api/v1/bible/search?q=${q}`);
    const changed = syntheticVersions();
    changed[0].text.books[0].chapters[0].verses[0].text = 'Texte reconstruit.';
    // The build is open (a chapter), its search workers not started yet.
    expect((await rawRequest(`${server.url}/api/v1/bible/Gn/1`)).status).toBe(200);

    // The database moves first; search workers started now find the new build there and refuse it.
    await writeDatabase(bible.databasePath, changed, 'new-build');
    const during = await search('terre');
    expect(during.status).toBe(503);
    expect(during.json()).toMatchObject({ type: problemType('bible-rebuilding') });
    expect((await search('terre')).status).toBe(503);

    // The tree lands: the next look opens the new build, with a new pool.
    await writeBibleBuild(bible.publicDir, bible.databasePath, changed, 'new-build');
    clock.advance(11_000);
    // A server that searched: the new build's workers start with it, before any search asks.
    expect((await rawRequest(`${server.url}/api/v1/bible/Gn/1`)).status).toBe(200);
    expect(server.services.bible.current().pool.started).toBe(true);
    const after = await search('reconstruit');
    expect(after.status).toBe(200);
    expect(after.json()).toMatchObject({ totalItems: 1 });
    expect(server.services.bible.status()).toEqual({ available: true, buildHash: 'new-build' });
  });

  test('once a rebuild has swapped the tree, its files are not served beside the old database', async () => {
    const bible = await fixture('before');
    // The source's clock stands still: no re-check falls due however long the rebuild takes.
    const server = await serverWith(bible.env, { bible: { now: sourceClock().now } });
    expect((await rawRequest(`${server.url}/api/v1/bible/Gn/1`)).status).toBe(200);
    const changed = syntheticVersions();
    changed[0].text.books[0].chapters[1].verses[0].text = 'Genèse 2:1 reconstruite.';
    await writeBibleBuild(bible.publicDir, bible.databasePath, changed, 'after');
    // No re-check due: a file not yet in memory belongs to the new tree, so 503 and look again.
    const during = await rawRequest(`${server.url}/api/v1/bible/Gn/2`);
    expect(during.status).toBe(503);
    expect(during.headers['retry-after']).toBe('2');
    expect(during.json()).toMatchObject({ status: 503, type: problemType('bible-rebuilding'), title: 'Bible build being swapped' });
    const after = await rawRequest(`${server.url}/api/v1/bible/Gn/2`);
    expect(after.status).toBe(200);
    expect((after.json() as { verses: { text: string }[] }).verses[0].text).toBe('Genèse 2:1 reconstruite.');
    expect(server.services.bible.status()).toEqual({ available: true, buildHash: 'after' });
  });
});
