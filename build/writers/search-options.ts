// The MiniSearch options of the Bible's search indexes: the indexed fields and the term processing, shared by the writer and every loader.
import type { Options } from 'minisearch';

/** One indexed verse. */
export interface SearchDocument {
  id: string;
  usfm: string;
  chapter: number;
  verse: number;
  text: string;
}

/** Lower-cases and strips accents (NFD, then drop combining marks): "Éternel" → "eternel". */
export function normalizeTerm(term: string): string {
  const lower = term.toLowerCase();
  // Most terms are plain ASCII: skip the costly normalisation for them (a third of index time).
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(COMBINING_MARKS, '') : lower;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range spans all of ASCII on purpose (fast path for ASCII-only terms)
const NON_ASCII = /[^\u0000-\u007f]/;
const COMBINING_MARKS = /\p{M}+/gu;

/** MiniSearch options shared by the writer and every loader. */
export function searchOptions(): Options<SearchDocument> {
  return {
    fields: ['text'],
    storeFields: ['usfm', 'chapter', 'verse'],
    idField: 'id',
    processTerm: (term) => normalizeTerm(term) || null,
  };
}
