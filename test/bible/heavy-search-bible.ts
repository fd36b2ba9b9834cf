// Test helper: the synthetic Bible plus thousands of French verses full of "de", so that the costliest search allowed takes real time.
import type { BuiltVersion } from '../../build/writers/types.ts';
import { syntheticVersions } from '../helpers/synthetic-model.ts';

/** Psalms 2 to 1 + HEAVY_CHAPTERS of the French version: 100 verses each. */
export const HEAVY_CHAPTERS = 200;

/**
 * The costliest query the search bounds allow here: a phrase of 7 × "de", about 7 × 20,000 index
 * entries, under MAX_SEARCH_COST (src/bible/search-cost.ts). 8 × "de" and more are refused by
 * the cost estimate, 17 and more by the phrase length bound (issue 11's 66 × "de").
 */
export const COSTLIEST_ALLOWED_QUERY = `"${Array(7).fill('de').join(' ')}"`;

/** The same phrase one "de" longer: over MAX_SEARCH_COST here, so refused before it runs. */
export const TOO_COSTLY_QUERY = `"${Array(8).fill('de').join(' ')}"`;

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
