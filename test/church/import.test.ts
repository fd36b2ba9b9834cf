// Church import: validation naming record and field, all-or-nothing, replacement by slug, demo data.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoDataIfEmpty } from '../../src/church/demo-data.ts';
import { resolveLocalDateTime } from '../../src/church/import/relative-time.ts';
import { ChurchImportError, validateChurchDocument } from '../../src/church/import/validate.ts';
import type { ChurchImportRecord } from '../../src/church/records.ts';
import type { ChurchEvent } from '../../src/church/responses.ts';
import { createSqliteChurchRepository } from '../../src/church/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { CHURCHES, type ChurchApi, churchDocument, startChurchApi } from './church-api.ts';

function problemsOf(document: unknown): string[] {
  try {
    validateChurchDocument(document, { now: new Date('2026-06-15T00:30:00Z') });
  } catch (error) {
    if (error instanceof ChurchImportError) return error.problems;
    throw error;
  }
  return [];
}

describe('validation', () => {
  it('names the record by index and slug, and the field, for each problem', () => {
    const problems = problemsOf({
      churches: [
        churchDocument('fine-church'),
        churchDocument('bad-church', {
          country: 'France',
          timeZone: 'Mars/Olympus',
          events: [{ slug: 'e1', name: 'E', start: '2026-13-01T10:00', isFree: true, isPublished: true, isPublic: 'yes' }],
          products: [
            { slug: 'mug', name: 'Mug', currency: 'EUR', visibleOnPublicPage: true },
            { slug: 'pen', name: 'Pen', currency: 'EUR', price: '1.999', visibleOnPublicPage: true },
          ],
          library: [{ slug: 'x', type: 'VIDEO', title: 'X', isPublic: true }],
        }),
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.country: /),
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.timeZone: "Mars\/Olympus" is not an IANA time zone/),
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.events\[0\] \(e1\)\.start: /),
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.events\[0\] \(e1\)\.isPublic: /),
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.products\[0\] \(mug\)\.price: is required for a product without variants/),
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.products\[1\] \(pen\)\.price: /),
        expect.stringMatching(/^churches\[1\] \(bad-church\)\.library\[0\] \(x\)\.type: must be one of PDF, BOOK, AUDIO/),
      ]),
    );
    expect(problems.some((problem) => problem.includes('fine-church'))).toBe(false);
  });

  it('refuses duplicate slugs in the document and within a church', () => {
    const problems = problemsOf({
      churches: [
        churchDocument('twice', {
          posts: [1, 2].map(() => ({ slug: 'same', title: 'T', publishedAt: '2026-01-01T00:00:00Z', isPublic: true })),
        }),
        churchDocument('twice'),
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^churches\[0\] \(twice\)\.posts\[1\] \(same\)\.slug: "same" appears twice/),
        expect.stringMatching(/^churches\[1\] \(twice\)\.slug: "twice" appears twice in the document/),
      ]),
    );
  });

  it('refuses a document that is not { churches: [...] }, and missing required fields', () => {
    expect(problemsOf([])).toEqual(['document: must be an object with a "churches" array']);
    expect(problemsOf({ churches: ['x'] })).toEqual(['churches[0]: must be an object']);
    const problems = problemsOf({ churches: [{ slug: 'bare' }] });
    for (const field of ['name', 'city', 'country', 'language', 'timeZone', 'isPublic']) {
      expect(
        problems.some((problem) => problem.startsWith(`churches[0] (bare).${field}:`)),
        field,
      ).toBe(true);
    }
  });

  it('refuses an end before the start, a price with variants, and non-http URLs', () => {
    const problems = problemsOf({
      churches: [
        churchDocument('c', {
          website: 'javascript:alert(1)',
          events: [
            { slug: 'e', name: 'E', start: '2026-07-01T10:00', end: '2026-07-01T09:00', isFree: true, isPublished: true, isPublic: true },
          ],
          products: [
            { slug: 'p', name: 'P', currency: 'EUR', price: '1.00', variants: [{ name: 'A', price: '2.00' }], visibleOnPublicPage: true },
          ],
        }),
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^churches\[0\] \(c\)\.website: must be an absolute http or https URL/),
        expect.stringMatching(/^churches\[0\] \(c\)\.events\[0\] \(e\)\.end: must not be before start/),
        expect.stringMatching(/^churches\[0\] \(c\)\.products\[0\] \(p\)\.price: must be left out when the product has variants/),
      ]),
    );
  });

  it('refuses a misspelt field rather than dropping it silently, but allows $comment keys', () => {
    const problems = problemsOf({
      $comment: 'ignored',
      churches: [
        churchDocument('typo', {
          $note: 'ignored too',
          coverImageURL: 'https://example.org/c.jpg',
          live: { stationName: 'S', isVideo: false, isLive: false, url: 'https://example.org/live' },
        }),
      ],
    });
    expect(problems).toEqual([
      'churches[0] (typo).coverImageURL: is not a known field',
      'churches[0] (typo).live.url: is not a known field',
    ]);
  });

  it('checks each field against the schema once, in words, then the rules that span fields; null reads as left out', () => {
    const problems = problemsOf({
      churches: [
        churchDocument('words', {
          name: 'x'.repeat(201),
          timeZone: 5,
          bio: null,
          website: null,
          albums: [{ albumId: 'a', title: 'A', isPublic: true, date: '2026-02-30', photos: [{ thumbnailUrl: 'ftp://x', width: 0 }] }],
          products: [
            {
              slug: 'p',
              name: 'P',
              currency: 'EUR',
              variants: [
                { name: 'A', price: '2.001' },
                { name: 'A', price: '1' },
              ],
              visibleOnPublicPage: true,
            },
          ],
        }),
      ],
    });
    expect(problems).toEqual([
      'churches[0] (words).name: must be at most 200 characters',
      'churches[0] (words).timeZone: 5 is not an IANA time zone (e.g. Europe/Paris)',
      'churches[0] (words).albums[0] (a).date: must be a date YYYY-MM-DD',
      'churches[0] (words).albums[0] (a).photos[0].url: is required (an http or https URL)',
      'churches[0] (words).albums[0] (a).photos[0].thumbnailUrl: must be an absolute http or https URL',
      'churches[0] (words).albums[0] (a).photos[0].width: must be a positive whole number',
      'churches[0] (words).products[0] (p).variants[1] (A).name: "A" appears twice in churches[0] (words).products[0] (p).variants',
      'churches[0] (words).products[0] (p).variants[0] (A).price: must be a non-negative decimal string with at most the minor digits of EUR (e.g. "12.50")',
    ]);
  });

  it("resolves relative event times against today in the church's zone", () => {
    const [auckland] = validateChurchDocument(
      {
        churches: [
          churchDocument('nz', {
            timeZone: 'Pacific/Auckland',
            events: [
              { slug: 'e', name: 'E', start: 'today+1T09:00', end: 'today+20T10:00', isFree: true, isPublished: true, isPublic: true },
            ],
          }),
        ],
      },
      // 00:30 UTC on 15 June is already 15 June, 12:30, in Auckland.
      { now: new Date('2026-06-15T00:30:00Z') },
    );
    expect(auckland.events[0]).toMatchObject({ startLocal: '2026-06-16T09:00', endLocal: '2026-07-05T10:00' });
    expect(resolveLocalDateTime('todayT10:00', '2026-12-31')).toBe('2026-12-31T10:00');
    expect(resolveLocalDateTime('today-1T10:00', '2026-03-01')).toBe('2026-02-28T10:00');
    expect(resolveLocalDateTime('2026-02-30T10:00', undefined)).toBeUndefined();
    expect(resolveLocalDateTime('2026-02-28T24:00', undefined)).toBeUndefined();
  });

  it('accepts the demo document as it is', () => {
    const records = validateChurchDocument(JSON.parse(fs.readFileSync('data/demo/churches.json', 'utf8')));
    expect(records.map((record) => record.church.slug)).toEqual([
      'grace-paris',
      'igreja-esperanca-sp',
      'harbour-light-auckland',
      'iglesia-betel-la',
      'stille-kapel-utrecht',
    ]);
  });
});

describe('import into the running service', () => {
  let api: ChurchApi;
  beforeAll(async () => {
    api = await startChurchApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('writes nothing when any record is invalid', async () => {
    const before = await api.server.services.churches.counts();
    await expect(
      api.importChurches({ churches: [churchDocument('first-ok'), churchDocument('second-bad', { language: 'French!' })] }),
    ).rejects.toThrow(/churches\[1\] \(second-bad\)\.language/);
    expect(await api.server.services.churches.counts()).toEqual(before);
    expect((await api.request(`${CHURCHES}/first-ok`)).status).toBe(404);
  });

  it('rolls back the whole transaction when the database refuses a record part-way', async () => {
    const before = await api.server.services.churches.counts();
    const [valid] = validateChurchDocument({ churches: [churchDocument('rollback-ok')] });
    // A record that skipped validation: the CHECK on country fails on the second insert.
    const invalid: ChurchImportRecord = { ...valid, church: { ...valid.church, slug: 'rollback-bad', country: 'fr' } };
    await expect(api.server.services.churches.importChurches([valid, invalid])).rejects.toThrow(/CHECK constraint/);
    expect(await api.server.services.churches.counts()).toEqual(before);
    expect((await api.request(`${CHURCHES}/rollback-ok`)).status).toBe(404);
  });

  it('replaces a church with the same slug whole, and can hide it', async () => {
    const event = { slug: 'gathering', name: 'Gathering', start: 'today+2T10:00', isFree: true, isPublished: true, isPublic: true };
    await api.importChurches({ churches: [churchDocument('replace-me', { events: [event] })] });
    expect((await api.json<ChurchEvent[]>('replace-me/events')).map((item) => item.slug)).toEqual(['gathering']);

    const summary = await api.importChurches({ churches: [churchDocument('replace-me', { name: 'Renamed' })] });
    expect(summary).toMatchObject({ churches: 1, replaced: 1, events: 0 });
    expect(await api.json('replace-me/events')).toEqual([]);
    expect(await api.json('replace-me')).toMatchObject({ name: 'Renamed' });

    await api.importChurches({ churches: [churchDocument('replace-me', { isPublic: false })] });
    expect((await api.request(`${CHURCHES}/replace-me`)).status).toBe(404);
  });
});

describe('demo data loading', () => {
  it('loads into an empty database only, through the church repository', async () => {
    const db = openDatabase(':memory:');
    try {
      const churches = createSqliteChurchRepository(db);
      const first = await loadDemoDataIfEmpty(churches);
      expect(first).toMatchObject({ churches: 5, replaced: 0 });
      expect(first!.posts).toBeGreaterThan(50);
      expect(await loadDemoDataIfEmpty(churches)).toBeUndefined();
      expect((await churches.counts()).churches).toBe(5);
    } finally {
      db.close();
    }
  });
});
