// Test helper: the synthetic Bible plus thousands of French verses full of "de", so that the costliest search allowed takes real time.
import type { BuiltVersion } from '../../build/writers/types.ts';
import { syntheticVersions } from '../helpers/synthetic-model.ts';

/** Psalms 2 to 1 + HEAVY_CHAPTERS of the French version: 100 verses each. */
export const HEAVY_CHAPTERS = 200;

/** The costliest query the search bounds allow: a phrase of 16 × "de" (issue 11's 66 × "de" is refused). */
export const COSTLIEST_ALLOWED_QUERY = `"${Array(16).fill('de').join(' ')}"`;

/**
 * The five synthetic versions; French Psalms gains HEAVY_CHAPTERS chapters whose verses repeat
 * "de" with other words between, so no verse holds the 16-word phrase but every one is a
 * candidate FTS5 must check position by position, as in the real French Bible.
 */
export function heavySearchVersions(): BuiltVersion[] {
  const versions = syntheticVersions();
  const psalms = versions[0].text.books.find((book) => book.code === 'PSA');
  if (!psalms) throw new Error('the synthetic French version has no Psalms');
  for (let chapter = 2; chapter <= 1 + HEAVY_CHAPTERS; chapter++) {
    psalms.chapters.push({
      number: chapter,
      verses: Array.from({ length: 100 }, (_, index) => ({
        number: index + 1,
        text: `${'de de de la '.repeat(25)}verset ${chapter}:${index + 1}.`,
      })),
    });
  }
  return versions;
}
