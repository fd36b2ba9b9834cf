// The search cost estimate: its model against the index's own counts, and a search over the limit refused with a 400 naming q.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeDatabase } from '../../build/writers/database.ts';
import { createSearchCost, MAX_SEARCH_COST, PREFIX_COST_FACTOR } from '../../src/bible/search-cost.ts';
import { searchExpression } from '../../src/bible/search-query.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { COSTLIEST_ALLOWED_QUERY, heavySearchVersions, TOO_COSTLY_QUERY } from './heavy-search-bible.ts';
import { rawRequest } from './raw-request.ts';

describe('the cost model', () => {
  let dir: string;
  let db: Database.Database;
  /** Verses holding a word, read straight from the index's vocabulary, as the test's own oracle. */
  let docs: (word: string) => number;
  let prefixDocs: (prefix: string) => number;
  const cost = (q: string) => createSearchCost(db)(searchExpression(q)!.terms);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-cost-'));
    const databasePath = path.join(dir, 'bible.sqlite');
    await writeDatabase(databasePath, heavySearchVersions(), 'heavy-1');
    db = new Database(databasePath, { readonly: true, fileMustExist: true });
    const oracle = new Database(databasePath, { readonly: true });
    oracle.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, 'verses_fts', 'row')`);
    docs = (word) => (oracle.prepare('SELECT doc FROM temp.v WHERE term = ?').pluck().get(word) as number | undefined) ?? 0;
    prefixDocs = (prefix) =>
      oracle.prepare('SELECT coalesce(sum(doc), 0) FROM temp.v WHERE substr(term, 1, ?) = ?').pluck().get(prefix.length, prefix) as number;
  });

  afterAll(() => {
    db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a word costs its verses; a phrase its length times its rarest word, a repeated word counting each time', () => {
    expect(docs('de')).toBeGreaterThan(20_000);
    expect(cost('de')).toBe(docs('de'));
    expect(cost('De')).toBe(docs('de'));
    expect(cost('"de de de"')).toBe(3 * docs('de'));
    expect(cost('"de la"')).toBe(2 * Math.min(docs('de'), docs('la')));
    expect(cost('"zzzz de"')).toBe(0);
  });

  test('OR adds its alternatives, groups that must all match cost their cheapest, a prefix is always added', () => {
    expect(cost('de OR la')).toBe(docs('de') + docs('la'));
    expect(cost('de la')).toBe(Math.min(docs('de'), docs('la')));
    expect(cost('dieu -de')).toBe(docs('dieu'));
    expect(prefixDocs('ve')).toBeGreaterThan(0);
    expect(cost('ve*')).toBe(PREFIX_COST_FACTOR * prefixDocs('ve'));
    expect(cost('dieu -ve*')).toBe(docs('dieu') + PREFIX_COST_FACTOR * prefixDocs('ve'));
  });

  test('the fixture frames the limit: the allowed phrase is under it, one more "de" is over', () => {
    expect(cost(COSTLIEST_ALLOWED_QUERY)).toBeLessThanOrEqual(MAX_SEARCH_COST);
    expect(cost(TOO_COSTLY_QUERY)).toBeGreaterThan(MAX_SEARCH_COST);
  });
});

describe('over HTTP', () => {
  let bible: BibleFixture;
  let server: TestServer;

  beforeAll(async () => {
    bible = await buildBibleFixture(heavySearchVersions());
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'warn', BIBLE_SEARCH_TIMEOUT_MS: '20000' });
  });

  afterAll(async () => {
    await server?.close();
    bible?.remove();
  });

  const search = (q: string) => rawRequest(`${server.url}/api/v1/bible/search?lang=fr&size=5&q=${encodeURIComponent(q)}`);

  test('a search over the limit is refused before it runs: 400 problem naming q, saying why and what to do', async () => {
    const res = await search(TOO_COSTLY_QUERY);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 400, parameter: 'q', detail: expect.stringContaining('too costly to search') });
    expect((res.json() as { detail: string }).detail).toMatch(/rarer word|longer prefix/);
  });

  test('searches under the limit answer as before, the commonest word included', async () => {
    const word = await search('de');
    expect(word.status).toBe(200);
    expect((word.json() as { totalItems: number }).totalItems).toBeGreaterThanOrEqual(20_000);
    const phrase = await search(COSTLIEST_ALLOWED_QUERY);
    expect(phrase.status).toBe(200);
    // No verse holds seven "de" in a row (the fixture puts "de de de la" between them).
    expect(phrase.json()).toMatchObject({ totalItems: 0, items: [] });
    const mixed = await search(`dieu ${TOO_COSTLY_QUERY}`);
    expect(mixed.status).toBe(200);
  });
});
