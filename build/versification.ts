// Versifications (KJV, KJVA, NRSV: books and verses per chapter, from SWORD's canon headers), which both readers use.
import kjv from '../data/versifications/kjv.json' with { type: 'json' };
import kjva from '../data/versifications/kjva.json' with { type: 'json' };
import nrsv from '../data/versifications/nrsv.json' with { type: 'json' };
import type { Testament } from './contract/books.ts';

/** One book of a versification, as SWORD's canon headers list it. */
export interface VersificationBook {
  /** OSIS book name ("Gen", "1Macc"). */
  osis: string;
  /** SWORD's English name ("Genesis"), the one `mod2imp` prints in its keys. */
  name: string;
  testament: Testament;
  /** Verses per chapter: `verses[0]` is the verse count of chapter 1. */
  verses: number[];
}

export interface Versification {
  name: string;
  books: VersificationBook[];
}

const known: Record<string, Versification> = {
  KJV: kjv as Versification,
  KJVA: kjva as Versification,
  NRSV: nrsv as Versification,
};

/**
 * The versification of this name, as a SWORD module's conf names it; KJV when it names none
 * (SWORD's default).
 *
 * @example versificationByName('KJVA').books.length // 80
 */
export function versificationByName(name: string | undefined): Versification {
  const key = (name ?? 'KJV').trim().toUpperCase() || 'KJV';
  const versification = known[key];
  if (!versification) {
    throw new Error(`Unsupported versification "${name}" (known: ${Object.keys(known).join(', ')})`);
  }
  return versification;
}
