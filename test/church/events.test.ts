// Events endpoint: only published public upcoming events, in the church's own time zone, sorted, at most 50.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateChurchDocument } from '../../src/church/import/validate.ts';
import { localWallTime } from '../../src/church/local-time.ts';
import type { ChurchEvent } from '../../src/church/responses.ts';
import { createSqliteChurchRepository } from '../../src/church/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { fixedClock } from '../helpers/clock.ts';
import { CHURCHES, type ChurchApi, churchDocument, startChurchApi } from './church-api.ts';

/**
 * The demo server's clock, fixed: the demo's relative times ("today+3T20:00") are resolved when it
 * loads, and the test's expectations from the same instant, whenever the test runs. 23:30 UTC is
 * already the next day in Paris, so "today" must be the church's, not UTC's.
 */
const DEMO_NOW = new Date('2026-03-18T23:30:00Z');

let api: ChurchApi;
beforeAll(async () => {
  api = await startChurchApi({}, { clock: fixedClock(DEMO_NOW) });
});
afterAll(async () => {
  await api.close();
});

const EVENT_FIELDS = ['name', 'slug', 'description', 'startDate', 'endDate', 'location', 'coverImageUrl', 'isFree', 'registrationPage'];

function event(slug: string, start: string, end: string | null, extra: Record<string, unknown> = {}) {
  return { slug, name: slug, start, ...(end ? { end } : {}), isFree: true, isPublished: true, isPublic: true, ...extra };
}

describe('demo events', () => {
  it('lists upcoming published public events with exactly the spec fields', async () => {
    const events = await api.json<ChurchEvent[]>('grace-paris/events');
    for (const item of events) expect(Object.keys(item)).toEqual(EVENT_FIELDS);
    expect(events.map((item) => item.slug)).toEqual([
      'retraite-en-cours',
      'concert-de-louange',
      'brocante-solidaire',
      'atelier-couples',
      'bapteme-au-printemps',
    ]);
  });

  it('keeps an event that started but has not ended, drops past, unpublished and private ones', async () => {
    const slugs = (await api.json<ChurchEvent[]>('grace-paris/events')).map((item) => item.slug);
    expect(slugs).toContain('retraite-en-cours');
    expect(slugs).not.toContain('culte-de-noel-2020');
    expect(slugs).not.toContain('reunion-preparatoire');
    expect(slugs).not.toContain('conseil-interne');
    const saoPaulo = (await api.json<ChurchEvent[]>('igreja-esperanca-sp/events')).map((item) => item.slug);
    expect(saoPaulo).toEqual(['culto-de-jovens', 'acampamento']);
  });

  it('shapes dates as local YYYY-MM-DDTHH:MM, nulls for no end and no cover, and registration links', async () => {
    const events = await api.json<ChurchEvent[]>('grace-paris/events');
    const bySlug = new Map(events.map((item) => [item.slug, item]));
    for (const item of events) expect(item.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const brocante = bySlug.get('brocante-solidaire')!;
    expect(brocante.endDate).toBeNull();
    expect(brocante.coverImageUrl).toBeNull();
    expect(brocante.registrationPage).toBe('https://churches.example.org/grace-paris/events/brocante-solidaire');
    const atelier = bySlug.get('atelier-couples')!;
    expect(atelier.isFree).toBe(false);
    expect(atelier.registrationPage).toBe('https://tickets.example.org/grace-paris/atelier-couples');
    expect(atelier.endDate).toMatch(/^\d{4}-\d{2}-\d{2}T21:30$/);
    // Relative demo times are resolved in the church's zone at load: at DEMO_NOW it is 19 March in
    // Paris (00:30), so the concert, 3 days after today at 20:00, is on 22 March.
    expect(bySlug.get('concert-de-louange')!.startDate).toBe('2026-03-22T20:00');
    expect(bySlug.get('retraite-en-cours')).toMatchObject({ startDate: '2026-03-18T09:00', endDate: '2026-03-20T17:00' });
  });

  it('answers an empty array for a church with no upcoming event', async () => {
    await api.importChurches({ churches: [churchDocument('quiet-church', { events: [event('old', '2001-01-01T10:00', null)] })] });
    expect(await api.json<ChurchEvent[]>('quiet-church/events')).toEqual([]);
  });
});

describe('50-event cap and order', () => {
  it('returns the first 50 of 60 upcoming events, sorted by start then name', async () => {
    const events = [];
    for (let index = 0; index < 60; index++) {
      // Pairs share a start time; names are inserted in reverse order so the name tie-break is visible.
      const day = 1 + Math.floor(index / 2);
      events.push({
        ...event(`event-${index}`, `today+${day}T18:00`, null),
        name: `${index % 2 === 0 ? 'Zeta' : 'Alpha'} ${String(day).padStart(2, '0')}`,
      });
    }
    await api.importChurches({ churches: [churchDocument('busy-church', { events })] });
    const listed = await api.json<ChurchEvent[]>('busy-church/events');
    expect(listed).toHaveLength(50);
    const sorted = [...listed].sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name));
    expect(listed).toEqual(sorted);
    expect(listed[0].name).toBe('Alpha 01');
    expect(listed[1].name).toBe('Zeta 01');
    expect(listed[49].name).toBe('Zeta 25');
  });
});

describe('"upcoming" is decided in the church\'s own time zone', () => {
  // 00:30 UTC on 15 June 2026 is 12:30 on 15 June in Auckland (UTC+12) and 17:30 on 14 June in Los Angeles (UTC-7).
  const instant = new Date('2026-06-15T00:30:00Z');
  const clock = fixedClock(instant);
  let clocked: ChurchApi;

  beforeAll(async () => {
    clocked = await startChurchApi({ DEMO_DATA: 'false' }, { clock });
    await clocked.importChurches({
      churches: [
        churchDocument('tz-auckland', {
          timeZone: 'Pacific/Auckland',
          country: 'NZ',
          events: [
            // Ended 30 minutes ago in Auckland, though 12:00 on 15 June is still hours ahead in UTC terms.
            event('auckland-ended', '2026-06-15T11:00', '2026-06-15T12:00'),
            event('auckland-ends-soon', '2026-06-15T11:00', '2026-06-15T13:00'),
            event('auckland-no-end-started', '2026-06-15T12:00', null),
            event('auckland-no-end-later', '2026-06-15T12:45', null),
            event('auckland-ends-now', '2026-06-15T12:00', '2026-06-15T12:30'),
          ],
        }),
        churchDocument('tz-los-angeles', {
          timeZone: 'America/Los_Angeles',
          country: 'US',
          events: [
            // Ends in 30 minutes in Los Angeles, though 18:00 on 14 June is long past in UTC terms.
            event('la-ends-soon', '2026-06-14T17:00', '2026-06-14T18:00'),
            event('la-ended', '2026-06-14T16:00', '2026-06-14T17:00'),
          ],
        }),
      ],
    });
  });

  afterAll(async () => {
    await clocked?.close();
  });

  it('with a fixed clock in the whole app: an Auckland event that ended 30 minutes ago is gone; one ending later stays', async () => {
    const auckland = await clocked.json<ChurchEvent[]>('tz-auckland/events');
    expect(auckland.map((item) => item.slug)).toEqual(['auckland-ends-soon', 'auckland-no-end-later']);
    const losAngeles = await clocked.json<ChurchEvent[]>('tz-los-angeles/events');
    expect(losAngeles.map((item) => item.slug)).toEqual(['la-ends-soon']);

    // 31 minutes later the Los Angeles event has ended too.
    clock.set(new Date('2026-06-15T01:01:00Z'));
    const later = await clocked.json<ChurchEvent[]>('tz-los-angeles/events');
    expect(later).toEqual([]);
  });

  it("answers to the minute and to another process's import within the same minute", async () => {
    clock.set(new Date('2026-06-15T00:30:00Z'));
    const document = (events: unknown[]) => ({ churches: [churchDocument('tz-minute', { timeZone: 'Pacific/Auckland', events })] });
    await clocked.importChurches(document([event('ends-12-31', '2026-06-15T12:00', '2026-06-15T12:31')]));
    expect((await clocked.json<ChurchEvent[]>('tz-minute/events')).map((item) => item.slug)).toEqual(['ends-12-31']);
    // 12:30:59 in Auckland: the same minute, the same answer.
    clock.set(new Date('2026-06-15T00:30:59Z'));
    expect((await clocked.json<ChurchEvent[]>('tz-minute/events')).map((item) => item.slug)).toEqual(['ends-12-31']);
    // The CLI's import (another connection to the file), still within that minute: its events at once.
    const other = openDatabase(path.join(clocked.server.dir, 'church.sqlite'));
    try {
      const records = validateChurchDocument(document([event('imported-elsewhere', '2026-06-15T13:00', null)]), { now: clock.now() });
      await createSqliteChurchRepository(other).importChurches(records);
    } finally {
      other.close();
    }
    expect((await clocked.json<ChurchEvent[]>('tz-minute/events')).map((item) => item.slug)).toEqual(['imported-elsewhere']);
    // 12:31: an event ending then is over.
    await clocked.importChurches(document([event('ends-12-31', '2026-06-15T12:00', '2026-06-15T12:31')]));
    expect((await clocked.json<ChurchEvent[]>('tz-minute/events')).map((item) => item.slug)).toEqual(['ends-12-31']);
    clock.set(new Date('2026-06-15T00:31:00Z'));
    expect(await clocked.json<ChurchEvent[]>('tz-minute/events')).toEqual([]);
  });

  it('with the real clock through the whole app: ±30 minutes around now in Auckland and Los Angeles', async () => {
    const shifted = (minutes: number, zone: string) => localWallTime(new Date(Date.now() + minutes * 60_000), zone);
    // Its own server, on the system clock (the demo server's clock is fixed).
    const real = await startChurchApi();
    try {
      await real.importChurches({
        churches: [
          churchDocument('tz-now-auckland', {
            timeZone: 'Pacific/Auckland',
            events: [
              event('ended-30-min-ago', shifted(-90, 'Pacific/Auckland'), shifted(-30, 'Pacific/Auckland')),
              event('ends-in-30-min', shifted(-60, 'Pacific/Auckland'), shifted(30, 'Pacific/Auckland')),
            ],
          }),
          churchDocument('tz-now-la', {
            timeZone: 'America/Los_Angeles',
            events: [
              event('ended-30-min-ago', shifted(-90, 'America/Los_Angeles'), shifted(-30, 'America/Los_Angeles')),
              event('ends-in-30-min', shifted(-60, 'America/Los_Angeles'), shifted(30, 'America/Los_Angeles')),
            ],
          }),
        ],
      });
      for (const slug of ['tz-now-auckland', 'tz-now-la']) {
        const events = await real.json<ChurchEvent[]>(`${slug}/events`);
        expect(
          events.map((item) => item.slug),
          slug,
        ).toEqual(['ends-in-30-min']);
      }
    } finally {
      await real.close();
    }
  });
});

describe('events endpoint takes no paging', () => {
  it('ignores unknown query parameters rather than failing', async () => {
    const response = await api.request(`${CHURCHES}/grace-paris/events?page=3&size=1`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(5);
  });
});
