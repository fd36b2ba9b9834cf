// Church answers in other media types: content negotiation, the events as iCalendar, schema.org JSON-LD; keys, 404s and ETags as for JSON.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChurchEvent } from '../../src/church/responses.ts';
import { fixedClock } from '../helpers/clock.ts';
import { CHURCHES, type ChurchApi, churchDocument, startChurchApi } from './church-api.ts';

/** The demo's relative times are resolved at this instant; its Paris events then straddle the change to summer time (29 March). */
const DEMO_NOW = new Date('2026-03-18T23:30:00Z');

let api: ChurchApi;
beforeAll(async () => {
  api = await startChurchApi({}, { clock: fixedClock(DEMO_NOW) });
  // Around both changes of offset in Paris, and one in São Paulo (no summer time since 2019).
  await api.importChurches({
    churches: [
      churchDocument('dst-paris', {
        name: 'Temple; "Saint-Jean", Paris',
        events: [
          dstEvent('veille-ete', '2026-03-28T20:00', '2026-03-28T22:00'),
          dstEvent('nuit-ete', '2026-03-29T01:30', '2026-03-29T03:30'),
          dstEvent('jour-ete', '2026-03-29T20:00', null),
          dstEvent('nuit-hiver', '2026-10-25T01:30', '2026-10-25T04:00'),
          dstEvent('jour-hiver', '2026-10-25T20:00', '2026-10-25T21:00'),
        ],
      }),
      churchDocument('sao-paulo-test', {
        timeZone: 'America/Sao_Paulo',
        events: [dstEvent('culto', '2026-04-05T19:00', '2026-04-05T21:00')],
      }),
    ],
  });
});
afterAll(async () => {
  await api.close();
});

function dstEvent(slug: string, start: string, end: string | null) {
  return {
    slug,
    name: `Soirée ${slug}, avec « chants »; et \\ prière`,
    description: `Première ligne.\nDeuxième ligne, bien plus longue que soixante-quinze octets pour que la ligne soit repliée : ${'é'.repeat(40)}.`,
    start,
    ...(end ? { end } : {}),
    location: 'Temple, 12 rue Oberkampf',
    isFree: true,
    isPublished: true,
    isPublic: true,
  };
}

/** An Event item as the test reads it. */
interface LinkedEvent {
  '@type': string;
  name: string;
  startDate: string;
  endDate?: string;
  location: { '@type': string; address: Record<string, string> };
  eventAttendanceMode: string;
  isAccessibleForFree: boolean;
  offers: Record<string, unknown>;
  organizer: Record<string, unknown>;
}

const get = (path: string, accept?: string, headers: Record<string, string> = {}) =>
  api.request(`${CHURCHES}/${path}`, { headers: { ...(accept === undefined ? {} : { Accept: accept }), ...headers } });

/** The calendar parsed with ical.js, its VTIMEZONE registered so that event times resolve to instants. */
function parsedCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return calendar;
}

/** `YYYY-MM-DDTHH:MM` of an ical.js time, as the JSON writes it. */
const localOf = (time: ICAL.Time) => time.toString().slice(0, 16);

describe('content negotiation', () => {
  it('answers JSON with no Accept, for */*, and for application/json, with Vary: Accept', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
      const response = await get('grace-paris/events', accept);
      expect(response.status, String(accept)).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('vary')).toContain('Accept');
    }
  });

  it('answers 406 with a problem listing what is offered for a type it does not offer', async () => {
    const response = await get('grace-paris/events', 'image/png');
    expect(response.status).toBe(406);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('vary')).toContain('Accept');
    const problem = (await response.json()) as { status: number; type: string; detail: string };
    expect(problem.status).toBe(406);
    expect(problem.detail).toContain('application/json, text/calendar, application/ld+json');
    // An endpoint without alternatives offers JSON only, and says so.
    const posts = await get('grace-paris/posts', 'text/calendar');
    expect(posts.status).toBe(406);
    expect(((await posts.json()) as { detail: string }).detail).toContain('offers application/json;');
  });

  it('answers 401 without a key whatever the Accept, and 404 for an unknown church as JSON does', async () => {
    for (const accept of ['text/calendar', 'application/ld+json', 'image/png']) {
      const response = await get('grace-paris/events', accept, { Authorization: '' });
      expect(response.status, accept).toBe(401);
      const unknown = await get('no-such-church/events', accept === 'image/png' ? 'text/calendar' : accept);
      expect(unknown.status, accept).toBe(404);
      expect(await unknown.text()).toBe(await (await get('no-such-church/events')).text());
    }
  });

  it('gives each representation its own ETag, and 304 for each with its own', async () => {
    const tags = new Set<string>();
    for (const accept of ['application/json', 'text/calendar', 'application/ld+json']) {
      const first = await get('grace-paris/events', accept);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      tags.add(etag);
      const again = await get('grace-paris/events', accept, { 'If-None-Match': etag });
      expect(again.status, accept).toBe(304);
      expect(again.headers.get('vary')).toContain('Accept');
    }
    expect(tags.size).toBe(3);
    const json = (await get('grace-paris/events')).headers.get('etag')!;
    expect((await get('grace-paris/events', 'text/calendar', { 'If-None-Match': json })).status).toBe(200);
  });
});

describe('events as iCalendar', () => {
  for (const slug of ['grace-paris', 'dst-paris', 'sao-paulo-test', 'igreja-esperanca-sp']) {
    it(`${slug}: the same events as the JSON, each with a UID, a TZID start and the JSON's local times`, async () => {
      const events = await api.json<ChurchEvent[]>(`${slug}/events`);
      const response = await get(`${slug}/events`, 'text/calendar');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      const text = await response.text();
      const calendar = parsedCalendar(text);
      const vevents = calendar.getAllSubcomponents('vevent');
      expect(vevents).toHaveLength(events.length);
      const zone = calendar.getFirstPropertyValue('x-wr-timezone');
      expect(calendar.getAllSubcomponents('vtimezone').map((tz) => tz.getFirstPropertyValue('tzid'))).toEqual(events.length ? [zone] : []);
      for (const [index, json] of events.entries()) {
        const vevent = vevents[index]!;
        const event = new ICAL.Event(vevent);
        expect(event.uid).toBe(`${slug}.${json.slug}@churches.example.org`);
        expect(vevent.getFirstProperty('dtstart')!.getParameter('tzid')).toBe(zone);
        expect(event.startDate.zone?.tzid).toBe(zone);
        expect(localOf(event.startDate)).toBe(json.startDate);
        if (json.endDate === null) expect(vevent.hasProperty('dtend')).toBe(false);
        else expect(localOf(event.endDate)).toBe(json.endDate);
        expect(event.summary).toBe(json.name);
        expect(event.description ?? '').toBe(json.description);
        expect(event.location ?? '').toBe(json.location);
        expect(vevent.getFirstPropertyValue('url')).toBe(json.registrationPage);
        expect(vevent.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-03-18T23:30:00Z');
      }
    });
  }

  it('resolves times to the right instants on both sides of a change of offset', async () => {
    const calendar = parsedCalendar(await (await get('dst-paris/events', 'text/calendar')).text());
    const starts = Object.fromEntries(
      calendar.getAllSubcomponents('vevent').map((vevent) => {
        const event = new ICAL.Event(vevent);
        return [event.uid.split('.')[1]!.split('@')[0], event.startDate.toJSDate().toISOString()];
      }),
    );
    expect(starts).toEqual({
      'veille-ete': '2026-03-28T19:00:00.000Z',
      'nuit-ete': '2026-03-29T00:30:00.000Z',
      'jour-ete': '2026-03-29T18:00:00.000Z',
      'nuit-hiver': '2026-10-24T23:30:00.000Z',
      'jour-hiver': '2026-10-25T19:00:00.000Z',
    });
  });

  it('is RFC 5545 text: CRLF lines of 75 octets at most, text escaped, the calendar named', async () => {
    const text = await (await get('dst-paris/events', 'text/calendar')).text();
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n');
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    expect(text).toContain('X-WR-CALNAME:Temple\\; "Saint-Jean"\\, Paris\r\n');
    expect(text).toContain('X-WR-TIMEZONE:Europe/Paris\r\n');
    expect(text).toContain('SUMMARY:Soirée veille-ete\\, avec « chants »\\; et \\\\ prière\r\n');
    expect(text).toMatch(/DTSTART;TZID=Europe\/Paris:20260328T200000\r\n/);
    expect(text).toMatch(/BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZOFFSETFROM:\+0100\r\nTZOFFSETTO:\+0200\r\n/);
    expect(text).toMatch(/BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:\+0200\r\nTZOFFSETTO:\+0100\r\n/);
  });

  it('keeps the same UIDs across requests', async () => {
    const uids = async () =>
      parsedCalendar(await (await get('grace-paris/events', 'text/calendar')).text())
        .getAllSubcomponents('vevent')
        .map((vevent) => vevent.getFirstPropertyValue('uid'));
    expect(await uids()).toEqual(await uids());
  });
});

describe('schema.org JSON-LD', () => {
  it('answers the profile as a Church', async () => {
    const profile = await api.json<Record<string, string>>('grace-paris');
    const response = await get('grace-paris', 'application/ld+json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    const church = (await response.json()) as Record<string, unknown>;
    expect(church).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Church',
      name: profile.name,
      description: profile.bio,
      url: profile.publicPage,
      logo: profile.logoUrl,
      image: profile.coverImageUrl,
      address: { '@type': 'PostalAddress', addressLocality: profile.city, addressCountry: profile.country },
      sameAs: profile.website,
    });
  });

  it("answers the events as Event items with the fields of Google's event rich results and the zone's offsets", async () => {
    const events = await api.json<ChurchEvent[]>('dst-paris/events');
    const graph = (await (await get('dst-paris/events', 'application/ld+json')).json()) as {
      '@context': string;
      '@graph': LinkedEvent[];
    };
    expect(graph['@context']).toBe('https://schema.org');
    expect(graph['@graph']).toHaveLength(events.length);
    const offsets = ['+01:00', '+01:00', '+02:00', '+02:00', '+01:00'];
    for (const [index, item] of graph['@graph'].entries()) {
      const json = events[index]!;
      // Required for the rich result: name, startDate, location (a Place with an address).
      expect(item['@type']).toBe('Event');
      expect(item.name).toBe(json.name);
      expect(item.startDate).toBe(`${json.startDate}${offsets[index]}`);
      expect(item.location['@type']).toBe('Place');
      expect(item.location.address).toMatchObject({ '@type': 'PostalAddress', addressLocality: 'Testville', addressCountry: 'FR' });
      if (json.endDate !== null) expect(item.endDate).toMatch(new RegExp(`^${json.endDate}[+-]\\d{2}:\\d{2}$`));
      expect(item.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode');
      expect(item.isAccessibleForFree).toBe(json.isFree);
      expect(item.offers).toMatchObject({ '@type': 'Offer', url: json.registrationPage });
      expect(item.organizer).toMatchObject({ name: 'Temple; "Saint-Jean", Paris' });
    }
  });

  it('answers the live status as a BroadcastEvent while live', async () => {
    const live = await api.json<{ isLive: boolean; stationName: string | null }>('grace-paris/live');
    const graph = (await (await get('grace-paris/live', 'application/ld+json')).json()) as { '@graph': Record<string, unknown>[] };
    if (live.isLive) expect(graph['@graph'][0]).toMatchObject({ '@type': 'BroadcastEvent', isLiveBroadcast: true });
    else expect(graph['@graph'].map((item) => item['@type'])).toEqual(live.stationName === null ? [] : ['BroadcastService']);
  });
});
