// Wall-clock time of an instant in an IANA time zone, as `YYYY-MM-DDTHH:MM` (the form events are stored in).

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The local date-time at `instant` in `timeZone`, without seconds: comparable as a string with
 * event times stored in the same zone.
 *
 * @example localWallTime(new Date('2026-06-15T00:30:00Z'), 'Pacific/Auckland') // '2026-06-15T12:30'
 */
export function localWallTime(instant: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
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
