// Wall-clock time of an instant in an IANA time zone, as `YYYY-MM-DDTHH:MM` (the form events are stored in).

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last answer per zone, with its UTC minute: formatToParts is the costly part, and answers change once a minute. */
const lastAnswers = new Map<string, { minute: number; wallTime: string }>();

/**
 * The local date-time at `instant` in `timeZone`, without seconds: comparable as a string with
 * event times stored in the same zone.
 *
 * @example localWallTime(new Date('2026-06-15T00:30:00Z'), 'Pacific/Auckland') // '2026-06-15T12:30'
 */
export function localWallTime(instant: Date, timeZone: string): string {
  // Every zone's offset today is whole minutes, so one UTC minute is one local minute.
  const minute = Math.floor(instant.getTime() / 60_000);
  const last = lastAnswers.get(timeZone);
  if (last?.minute === minute) return last.wallTime;
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  const wallTime = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
  // Zones are the churches' (checked at import): as many entries as formatters, one each.
  lastAnswers.set(timeZone, { minute, wallTime });
  return wallTime;
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}
