// The string formats of the church import document, registered with TypeBox so the compiled schema checks them.
import { FormatRegistry } from '@sinclair/typebox';
import { isKnownTimeZone } from '../local-time.ts';
import { isKnownCurrency } from '../money.ts';
import { isRealDate, resolveLocalDateTime } from './relative-time.ts';

/** Format names of document.ts; each is registered once, when this module is first imported. */
export const IMPORT_FORMATS = {
  /** An absolute http or https URL. */
  httpUrl: 'http-url',
  /** An IANA time zone this runtime knows ("Europe/Paris"). */
  timeZone: 'time-zone',
  /** An ISO 4217 code this runtime knows ("EUR"). */
  currency: 'currency',
  /** A day of the calendar, `YYYY-MM-DD` (no 30 February). */
  date: 'date',
  /** A UTC instant to the second, `YYYY-MM-DDTHH:MM:SSZ`. */
  utcInstant: 'utc-instant',
  /** A local wall time, absolute ("2026-12-24T19:30") or relative to the import day ("today+3T19:30"). */
  localDateTime: 'local-date-time',
} as const;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

FormatRegistry.Set(IMPORT_FORMATS.httpUrl, (value) => /^https?:\/\//.test(value) && URL.canParse(value));
FormatRegistry.Set(IMPORT_FORMATS.timeZone, isKnownTimeZone);
FormatRegistry.Set(IMPORT_FORMATS.currency, isKnownCurrency);
FormatRegistry.Set(IMPORT_FORMATS.date, (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value));
FormatRegistry.Set(IMPORT_FORMATS.utcInstant, (value) => INSTANT.test(value) && !Number.isNaN(Date.parse(value)));
// Any day serves to check a relative time's form; it is resolved against the church's own today later.
FormatRegistry.Set(IMPORT_FORMATS.localDateTime, (value) => resolveLocalDateTime(value, '2000-01-01') !== undefined);
