// Searches made to be slow, near the bounds of src/bible/search-query.ts: repeated terms, long phrases of common words, OR chains, prefixes.
import { type LanguageCorpus, type SearchQuery, wordFrequencies } from './query-sets.ts';

/** The service's bounds (src/bible/search-query.ts and params.ts), as the queries below approach them. */
export const SEARCH_BOUNDS = { maxTerms: 10, maxPhraseWords: 16, maxWords: 24, maxLength: 200 } as const;

export type AdversarialKind =
  | 'repeated-term'
  | 'long-phrase-common'
  | 'phrase-of-one-word'
  | 'many-common-terms'
  | 'three-long-phrases'
  | 'or-chain-common'
  | 'prefix-common'
  | 'exclusion-common';

export interface AdversarialSearch extends Omit<SearchQuery, 'kind'> {
  kind: AdversarialKind;
}

/**
 * For each language, searches built from its commonest words (folded counts over the version),
 * each within the syntax bounds of search-query.ts: the costliest a client can type. Those the cost estimate
 * (src/bible/search-cost.ts) prices over its limit answer 400 at once; the run lists them.
 *
 * @example adversarialSearches([english]).find((s) => s.kind === 'or-chain-common')?.q // 'the OR and OR of OR …'
 */
export function adversarialSearches(corpora: readonly LanguageCorpus[]): AdversarialSearch[] {
  return corpora.flatMap((corpus) => {
    const common = wordFrequencies(corpus.verses).map((entry) => entry.word.toLowerCase());
    const top = (count: number) => common.slice(0, count);
    const commonest = common[0]!;
    // A prefix search needs two letters before the star: those of the commonest word that has them.
    const prefix = common.find((word) => word.length >= 2)!.slice(0, 2);
    const make = (kind: AdversarialKind, q: string): AdversarialSearch => ({ lang: corpus.lang, kind, q: fitted(q) });
    return [
      // Repeats are searched once: the text is long, the search should not be.
      make('repeated-term', Array(100).fill(commonest).join(' ')),
      make('long-phrase-common', `"${top(SEARCH_BOUNDS.maxPhraseWords).join(' ')}"`),
      make('phrase-of-one-word', `"${Array(SEARCH_BOUNDS.maxPhraseWords).fill(commonest).join(' ')}"`),
      make('many-common-terms', top(SEARCH_BOUNDS.maxTerms).join(' ')),
      make('three-long-phrases', [0, 1, 2].map((part) => `"${common.slice(part * 8, part * 8 + 8).join(' ')}"`).join(' ')),
      make('or-chain-common', top(SEARCH_BOUNDS.maxTerms).join(' OR ')),
      make('prefix-common', `${prefix}*`),
      make('exclusion-common', `${common[0]} ${common[1]} -${common[2]}`),
    ];
  });
}

/** At most the longest accepted text, cut at a space so no word is left half. */
function fitted(q: string): string {
  if (q.length <= SEARCH_BOUNDS.maxLength) return q;
  const cut = q.slice(0, SEARCH_BOUNDS.maxLength);
  return cut.slice(0, cut.lastIndexOf(' '));
}
