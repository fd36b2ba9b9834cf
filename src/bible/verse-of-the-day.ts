// Endpoint /verse-of-the-day: the day's file of the build's tree, for a date given or today's (UTC, by the app's clock).
import { Type } from '@sinclair/typebox';
import type { Lang } from '../../build/contract/books.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import type { Clock } from '../clock.ts';
import type { QueryParameter } from '../http/endpoint.ts';
import { ApiError } from '../http/problem.ts';
import type { StoredFile } from '../http/representations.ts';
import type { BibleBuild } from './source.ts';
import { requireFile } from './static-files.ts';

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** `date`: a calendar date YYYY-MM-DD (2023-02-29 is not one), given once; absent: undefined, the answer takes today's. */
export const dateParameter: QueryParameter<'date', string | undefined> = {
  name: 'date',
  schema: Type.String({ format: 'date' }),
  example: '2025-12-25',
  description:
    'The day, `YYYY-MM-DD` (a real calendar date: `2023-02-29` answers 400 naming date). Left out: today in UTC. A day has the same passage every year.',
  read(raw) {
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string' || !isCalendarDate(raw)) {
      throw new ApiError(
        problems.invalidParameter(
          'date',
          `date must be one calendar date written YYYY-MM-DD (such as 2025-12-25); got ${typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : 'several values'}.`,
        ),
      );
    }
    return raw;
  },
};

/**
 * The verse of the day of `date` (today in UTC when undefined) in `lang`: the build's file of that
 * month and day, the same bytes a static host serves at its tree path.
 *
 * @example verseOfTheDay(build, 'fr', '2025-03-01', systemClock) // the file api/v1/bible/verse-of-the-day/fr/03-01.json
 */
export function verseOfTheDay(build: BibleBuild, lang: Lang, date: string | undefined, clock: Clock): StoredFile {
  const day = (date ?? clock.now().toISOString().slice(0, 10)).slice(5, 10);
  const file = staticPaths.verseOfTheDay(lang, day);
  return requireFile(build.files.get(file), file);
}

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
