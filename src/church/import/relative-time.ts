// Event times of an import document: absolute local wall times, and "today±N" ones resolved against the church's own today.
import { localWallTime } from '../local-time.ts';

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const RELATIVE_DATE_TIME = /^today(?:([+-])(\d{1,4}))?T(\d{2}):(\d{2})$/;

/**
 * "2026-12-24T19:30" as is; "today+3T19:30" from `today`; undefined when malformed or not a real date.
 *
 * @example resolveLocalDateTime('today-1T10:00', '2026-03-01') // '2026-02-28T10:00'
 */
export function resolveLocalDateTime(value: string, today: string | undefined): string | undefined {
  const absolute = LOCAL_DATE_TIME.exec(value);
  if (absolute) return isRealDate(value.slice(0, 10)) && Number(absolute[4]) < 24 && Number(absolute[5]) < 60 ? value : undefined;
  const relative = RELATIVE_DATE_TIME.exec(value);
  if (!relative || today === undefined) return undefined;
  const [, sign, days, hour, minute] = relative;
  if (Number(hour) > 23 || Number(minute) > 59) return undefined;
  const base = new Date(`${today}T00:00:00Z`);
  base.setUTCDate(base.getUTCDate() + (sign === '-' ? -1 : 1) * Number(days ?? 0));
  return `${base.toISOString().slice(0, 10)}T${hour}:${minute}`;
}

/**
 * The date at `now` in the church's zone, `YYYY-MM-DD`: what "today" means in its event times.
 *
 * @example localToday(new Date('2026-06-15T00:30:00Z'), 'Pacific/Auckland') // '2026-06-15'
 */
export function localToday(now: Date, timeZone: string): string {
  return localWallTime(now, timeZone).slice(0, 10);
}

/** Whether `YYYY-MM-DD` names a day of the calendar (no 30 February). */
export function isRealDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}
