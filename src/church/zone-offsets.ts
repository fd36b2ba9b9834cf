// UTC offsets of an IANA zone from the runtime's own zone data (Intl): at an instant, for a local wall time, and the changes over a span.

/** A change of a zone's offset: the instant it happens, the offsets before and after (minutes east of UTC). */
export interface OffsetChange {
  at: Date;
  from: number;
  to: number;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

const MINUTE_MS = 60_000;
/** Offsets are looked at a week apart, then the change found to the minute: no zone changes twice within a week. */
const SCAN_STEP_MS = 7 * 24 * 60 * MINUTE_MS;

/**
 * The zone's offset from UTC at `instant`, in minutes (east positive).
 *
 * @example offsetAt(new Date('2026-07-01T12:00:00Z'), 'Europe/Paris') // 120
 */
export function offsetAt(instant: Date, timeZone: string): number {
  const name = formatterFor(timeZone)
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value;
  // 'GMT', 'GMT+01:00', 'GMT-03:30'
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? '');
  if (!match) throw new Error(`No offset for ${timeZone} at ${instant.toISOString()}: ${name}`);
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The offset of a local wall time (`YYYY-MM-DDTHH:MM`) in the zone. A time the zone skips (the
 * hour lost in spring) takes the offset after the change, a time it repeats (autumn) the first
 * one, as Temporal's `compatible` disambiguation does.
 *
 * @example offsetOfLocal('2026-03-29T20:00', 'Europe/Paris') // 120
 */
export function offsetOfLocal(local: string, timeZone: string): number {
  const asUtc = Date.parse(`${local}:00Z`);
  const before = offsetAt(new Date(asUtc - 24 * 60 * MINUTE_MS), timeZone);
  const after = offsetAt(new Date(asUtc + 24 * 60 * MINUTE_MS), timeZone);
  // Each candidate offset is right when the instant it gives shows that same offset.
  const fits = (offset: number) => offsetAt(new Date(asUtc - offset * MINUTE_MS), timeZone) === offset;
  if (fits(before)) return before;
  if (fits(after)) return after;
  // In the gap: the wall time read with the offset before the change, then shown after it.
  return after;
}

/**
 * `+01:00`, `-03:30`, `+00:00`: an offset as ISO 8601 writes it.
 *
 * @example isoOffset(-210) // '-03:30'
 */
export function isoOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Every change of the zone's offset between `from` and `to`, in order. */
export function offsetChanges(timeZone: string, from: Date, to: Date): OffsetChange[] {
  const changes: OffsetChange[] = [];
  let time = from.getTime();
  let offset = offsetAt(from, timeZone);
  while (time < to.getTime()) {
    const next = Math.min(time + SCAN_STEP_MS, to.getTime());
    const nextOffset = offsetAt(new Date(next), timeZone);
    if (nextOffset !== offset) {
      // The first minute with the new offset, by halving.
      let low = time;
      let high = next;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
        if (offsetAt(new Date(middle), timeZone) === offset) low = middle;
        else high = middle;
      }
      changes.push({ at: new Date(high), from: offset, to: nextOffset });
    }
    time = next;
    offset = nextOffset;
  }
  return changes;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}
