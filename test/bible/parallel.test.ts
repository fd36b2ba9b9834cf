// /parallel over real HTTP: a passage read in the first language's conventions and numbering, the other versions aligned through the mapping, never by number.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { syntheticVersesOfTheDay, withDifferingExodus } from '../helpers/synthetic-alignment.ts';
import { syntheticVersions } from '../helpers/synthetic-model.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

let bible: BibleFixture;
let server: TestServer;

beforeAll(async () => {
  const { versions, versification } = withDifferingExodus(syntheticVersions());
  bible = await buildBibleFixture(versions, 'test-build-parallel', { versification, versesOfTheDay: syntheticVersesOfTheDay() });
  server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', BIBLE_PASSAGE_MAX_VERSES: '6' });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

interface Cell {
  chapter: number;
  verse: number;
  text: string;
}
interface ParallelBody {
  langs: string[];
  reference: string;
  versions: { lang: string; version: string }[];
  passages: { references: Record<string, string | null>; rows: Record<string, Cell[]>[] }[];
}

const parallel = (ref: string, langs: string) =>
  rawRequest(`${server.url}/api/v1/bible/parallel?ref=${encodeURIComponent(ref)}&langs=${encodeURIComponent(langs)}`);
/** Each row as "c:v" lists per language. */
const rowsOf = (body: ParallelBody) =>
  body.passages.flatMap((passage) =>
    passage.rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([lang, cells]) => [lang, cells.map((c) => `${c.chapter}:${c.verse}`)])),
    ),
  );

describe('GET /parallel', () => {
  test('Ex 8:1 with langs=en,fr pairs KJV Exodus 8:1 with LSG Exode 7:26', async () => {
    const res = await parallel('Ex 8:1', 'en,fr');
    expect(res.status).toBe(200);
    const body = res.json() as ParallelBody;
    expect(body.langs).toEqual(['en', 'fr']);
    expect(body.reference).toBe('Exodus 8:1');
    expect(body.versions.map((v) => v.version)).toEqual(['KJV', 'LSG']);
    expect(body.passages[0]!.references).toEqual({ en: 'Exodus 8:1', fr: 'Exode 7.26' });
    expect(body.passages[0]!.rows).toEqual([
      { en: [{ chapter: 8, verse: 1, text: 'KJV Exodus 8:1' }], fr: [{ chapter: 7, verse: 26, text: 'LSG Exodus 7:26' }] },
    ]);
  });

  test('ref is read in the numbering and conventions of the first language: Ex 7,26 in French is KJV Exodus 8:1', async () => {
    const body = (await parallel('Ex 7,26-8,1', 'fr,en,nl')).json() as ParallelBody;
    expect(body.reference).toBe('Exode 7.26-8.1');
    expect(rowsOf(body)).toEqual([
      { fr: ['7:26'], en: ['8:1'], nl: ['8:1'] },
      // STV's 8:2 holds what LSG's 7:27 and 8:1 hold: one row.
      { fr: ['7:27', '8:1'], en: ['8:2', '8:3'], nl: ['8:2'] },
    ]);
  });

  test('nothing is matched by number where numbering differs; a verse without counterpart has an empty list', async () => {
    const body = (await parallel('Ex 8:1-4', 'en,fr')).json() as ParallelBody;
    expect(rowsOf(body)).toEqual([
      { en: ['8:1'], fr: ['7:26'] },
      { en: ['8:2'], fr: ['7:27'] },
      { en: ['8:3'], fr: ['8:1'] },
      { en: ['8:4'], fr: [] },
    ]);
    expect(body.passages[0]!.references).toEqual({ en: 'Exodus 8:1-4', fr: 'Exode 7.26-8.1' });
  });

  test('where one version joins two verses, they share one row', async () => {
    const body = (await parallel('Ex 8:1-4', 'en,nl')).json() as ParallelBody;
    expect(rowsOf(body)).toEqual([
      { en: ['8:1'], nl: ['8:1'] },
      { en: ['8:2', '8:3'], nl: ['8:2'] },
      { en: ['8:4'], nl: ['8:4'] },
    ]);
  });

  test('where numbering agrees, each verse of every language in its row; several passages in order', async () => {
    const body = (await parallel('Jn 3:16-17; Gn 1:1', 'EN,es,pt,nl,fr')).json() as ParallelBody;
    expect(body.langs).toEqual(['en', 'es', 'pt', 'nl', 'fr']);
    expect(body.passages).toHaveLength(2);
    const row = body.passages[0]!.rows[0]!;
    expect(Object.keys(row)).toEqual(['en', 'es', 'pt', 'nl', 'fr']);
    expect(row.es![0]!.text).toBe('es For God so loved the world (John 3:16).');
  });

  test.each([
    ['', 'Ex 8:1', 'langs'],
    ['en,de', 'Ex 8:1', 'langs'],
    ['en,en', 'Ex 8:1', 'langs'],
    ['en,fr,es,pt,nl,en', 'Ex 8:1', 'langs'],
    ['en,fr', '', 'ref'],
    ['en,fr', 'Ex 8:', 'ref'],
    ['en,fr', 'Ex 9:1', 'ref'],
    ['en,fr', 'Gn 1-2; Jn 1-3', 'ref'],
  ])('langs=%s ref=%s is a 400 naming %s', async (langs, ref, parameter) => {
    const res = await parallel(ref, langs);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ parameter });
  });
});
