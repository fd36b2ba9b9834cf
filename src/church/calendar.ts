// The upcoming events as an RFC 5545 iCalendar (text/calendar), written with ical.js: one VEVENT per JSON event, its times in the church's zone.
import ICAL from 'ical.js';
import type { ChurchRecord } from './records.ts';
import type { ChurchEvent } from './responses.ts';
import { offsetAt, offsetChanges, offsetOfLocal } from './zone-offsets.ts';

/** The media type of the calendar, as Accept names it. */
export const CALENDAR_MEDIA_TYPE = 'text/calendar';

/** The longest line RFC 5545 §3.1 allows, line break excluded. */
const RFC_LINE_OCTETS = 75;
const PRODUCT_ID = '-//church-bible-api//Church events//EN';
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** How often a subscribed calendar should be fetched again (RFC 7986 REFRESH-INTERVAL, and its older X-PUBLISHED-TTL). */
const REFRESH_INTERVAL = 'PT1H';

/**
 * The events of `church` as an iCalendar: each event's UID is made of the church's and the event's
 * slugs and the public site's host (the same on every request and after restarts); DTSTART and
 * DTEND are the JSON's local times with the church's IANA zone as TZID, and the VTIMEZONE covers
 * them with the offsets and changes of the runtime's zone data (the same data that decides which
 * events are upcoming). An event without an end has no DTEND: RFC 5545 §3.6.1 then ends it at its
 * start, as the JSON does. DTSTAMP is `stamp`, the minute the list was made: the service keeps no
 * revision time per event. ical.js escapes text, folds lines (75 octets at most) and ends them with CRLF.
 *
 * @example eventCalendar(church, events, 'churches.example.org', new Date())
 */
export function eventCalendar(church: ChurchRecord, events: readonly ChurchEvent[], siteHost: string, stamp: Date): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', PRODUCT_ID);
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addProperty(textProperty('x-wr-calname', church.name));
  calendar.addProperty(textProperty('x-wr-timezone', church.timeZone));
  calendar.addProperty(textProperty('name', church.name));
  calendar.addPropertyWithValue('refresh-interval', ICAL.Duration.fromString(REFRESH_INTERVAL));
  calendar.addPropertyWithValue('x-published-ttl', REFRESH_INTERVAL);
  if (events.length > 0) calendar.addSubcomponent(timeZoneComponent(church.timeZone, events));
  const dtstamp = ICAL.Time.fromJSDate(new Date(Math.floor(stamp.getTime() / MINUTE_MS) * MINUTE_MS), true);
  for (const event of events) {
    const vevent = new ICAL.Component('vevent');
    vevent.addPropertyWithValue('uid', `${church.slug}.${event.slug}@${siteHost}`);
    vevent.addPropertyWithValue('dtstamp', dtstamp);
    vevent.addProperty(zonedTime('dtstart', event.startDate, church.timeZone));
    if (event.endDate !== null) vevent.addProperty(zonedTime('dtend', event.endDate, church.timeZone));
    vevent.addPropertyWithValue('summary', event.name);
    if (event.description !== '') vevent.addPropertyWithValue('description', event.description);
    if (event.location !== '') vevent.addPropertyWithValue('location', event.location);
    vevent.addPropertyWithValue('url', event.registrationPage);
    if (event.coverImageUrl !== null) {
      // RFC 7986 IMAGE: a link, shown by the calendars that read it.
      const image = new ICAL.Property('image');
      image.setParameter('value', 'URI');
      image.setParameter('display', 'BADGE');
      image.setValue(event.coverImageUrl);
      vevent.addProperty(image);
    }
    vevent.addPropertyWithValue('transp', 'OPAQUE');
    calendar.addSubcomponent(vevent);
  }
  return `${folded(calendar)}\r\n`;
}

/**
 * The calendar's text, lines folded so that none is over 75 octets: ical.js folds at `foldLength`
 * octets before the leading space of a continuation line, which makes those 76; 74 keeps every line
 * within RFC 5545 §3.1. The setting is the module's: it is restored at once (toString is synchronous).
 */
function folded(calendar: ICAL.Component): string {
  const foldLength = ICAL.foldLength;
  ICAL.foldLength = RFC_LINE_OCTETS - 1;
  try {
    return calendar.toString();
  } finally {
    ICAL.foldLength = foldLength;
  }
}

/**
 * A text property ical.js does not know (X-WR-*, RFC 7986 NAME): it writes those as they are, so the
 * value is escaped here as RFC 5545 §3.3.11 escapes TEXT (a VALUE=TEXT parameter would do it too,
 * but some calendars then ignore the calendar's name).
 */
function textProperty(name: string, value: string): ICAL.Property {
  const property = new ICAL.Property(name);
  property.setValue(value.replace(/[\\;,]/g, (character) => `\\${character}`).replace(/\r?\n/g, '\\n'));
  return property;
}

/** `YYYY-MM-DDTHH:MM` as a DATE-TIME property with the zone as TZID. */
function zonedTime(name: string, local: string, timeZone: string): ICAL.Property {
  const property = new ICAL.Property(name);
  property.setParameter('tzid', timeZone);
  property.setValue(localTime(local));
  return property;
}

/** A floating ical.js time from `YYYY-MM-DDTHH:MM` (or `YYYY-MM-DDTHH:MM:SS`). */
function localTime(local: string): ICAL.Time {
  const [date, time] = local.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second = 0] = time.split(':').map(Number) as [number, number, number?];
  return ICAL.Time.fromData({ year, month, day, hour, minute, second, isDate: false });
}

/**
 * The VTIMEZONE of `timeZone` over the events' span (a day either side): the observance in force at
 * its start, then one per change of offset within it, each marked DAYLIGHT when its offset is above
 * the lower of that year's January and July offsets (zones without summer time have only STANDARD).
 */
function timeZoneComponent(timeZone: string, events: readonly ChurchEvent[]): ICAL.Component {
  const times = events.flatMap((event) => [event.startDate, event.endDate ?? event.startDate]).map((local) => Date.parse(`${local}:00Z`));
  const from = new Date(Math.min(...times) - DAY_MS);
  const to = new Date(Math.max(...times) + DAY_MS);
  const component = new ICAL.Component('vtimezone');
  component.addPropertyWithValue('tzid', timeZone);
  const first = offsetAt(from, timeZone);
  component.addSubcomponent(observance(timeZone, from, first, first));
  for (const change of offsetChanges(timeZone, from, to))
    component.addSubcomponent(observance(timeZone, change.at, change.from, change.to));
  return component;
}

/** One STANDARD or DAYLIGHT observance starting at `at`: DTSTART is the local time before the change (RFC 5545 §3.6.5). */
function observance(timeZone: string, at: Date, from: number, to: number): ICAL.Component {
  const year = at.getUTCFullYear();
  const standard = Math.min(offsetOfLocal(`${year}-01-01T12:00`, timeZone), offsetOfLocal(`${year}-07-01T12:00`, timeZone));
  const component = new ICAL.Component(to > standard ? 'daylight' : 'standard');
  component.addPropertyWithValue('dtstart', localTime(`${localOf(at, from)}:00`));
  component.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(from * 60));
  component.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(to * 60));
  return component;
}

/** `YYYY-MM-DDTHH:MM` of an instant at an offset (minutes east of UTC). */
function localOf(instant: Date, offset: number): string {
  return new Date(Math.floor(instant.getTime() / MINUTE_MS) * MINUTE_MS + offset * MINUTE_MS).toISOString().slice(0, 16);
}
