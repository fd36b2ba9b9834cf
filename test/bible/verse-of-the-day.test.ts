// The verse of the day over real HTTP: the build's day file for a date or for today (the app's clock), the same passage in every language.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { fixedClock, type TestClock } from '../helpers/clock.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

let bible: BibleFixture;
let server: TestServer;
let clock: TestClock;

beforeAll(async () => {
  bible = await buildBibleFixture();
  clock = fixedClock(new Date('2026-01-01T23:59:59Z'));
  server = await startTestServer({ ...bible.env, DEMO_DATA: 'false' }, { clock });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

const day = (query: string) => rawRequest(`${server.url}/api/v1/bible/verse-of-the-day${query}`);
const dayFile = (lang: string, monthDay: string) =>
  fs.readFileSync(path.join(bible.publicDir, staticPaths.verseOfTheDay(lang, monthDay)), 'utf8');

describe('GET /verse-of-the-day', () => {
  test('a date answers the bytes of the static file of its month and day, every year', async () => {
    for (const date of ['2025-01-05', '2031-01-05']) {
      const res = await day(`?lang=en&date=${date}`);
      expect(res.status).toBe(200);
      expect(res.body.toString('utf8')).toBe(dayFile('en', '01-05'));
      expect(res.json()).toMatchObject({ day: '01-05', lang: 'en', shared: 'GEN 1:4', reference: 'Genesis 1:3' });
    }
  });

  test('without a date, today in UTC by the app clock, changing at midnight UTC', async () => {
    clock.set(new Date('2026-01-01T23:59:59Z'));
    expect((await day('?lang=fr')).json()).toMatchObject({ day: '01-01', shared: 'JHN 3:16', reference: 'Jean 3.16' });
    clock.set(new Date('2026-01-02T00:00:00Z'));
    const res = await day('?lang=fr');
    expect(res.json()).toMatchObject({ day: '01-02', shared: 'GEN 1:1-2' });
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toBeTruthy();
  });

  test('29 February of a leap year has its passage', async () => {
    expect((await day('?lang=nl&date=2028-02-29')).json()).toMatchObject({ day: '02-29', lang: 'nl' });
  });

  test('the same passage in all five languages on a day', async () => {
    const bodies = await Promise.all(
      LANGS.map(
        async (lang) =>
          (await day(`?lang=${lang}&date=2026-01-04`)).json() as { shared: string; from: unknown; to: unknown; version: string },
      ),
    );
    expect(new Set(bodies.map((body) => body.shared))).toEqual(new Set(['JHN 3:16-17']));
    expect(bodies.map((body) => [body.from, body.to])).toEqual(
      LANGS.map(() => [
        { chapter: 3, verse: 16 },
        { chapter: 3, verse: 17 },
      ]),
    );
    expect(new Set(bodies.map((body) => body.version)).size).toBe(5);
  });

  test.each([
    ['2023-02-29', 'not a day of 2023'],
    ['2026-13-01', 'no month 13'],
    ['2026-1-5', 'not zero-padded'],
    ['01-05', 'no year'],
    ['2026-01-05T00:00:00Z', 'a time'],
  ])('date=%s (%s) is a 400 naming date', async (date) => {
    const res = await day(`?lang=en&date=${encodeURIComponent(date)}`);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ parameter: 'date' });
  });

  test('date given twice, and an unknown lang, are 400s naming them', async () => {
    expect((await day('?date=2026-01-01&date=2026-01-02')).json()).toMatchObject({ status: 400, parameter: 'date' });
    expect((await day('?lang=de')).json()).toMatchObject({ status: 400, parameter: 'lang' });
  });
});
