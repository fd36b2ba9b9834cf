// The search text → FTS5 expression parser: escaping, duplicate terms searched once, and the bounds on a query's cost.
import { describe, expect, test } from 'vitest';
import { ftsQuery, MAX_PHRASE_WORDS, MAX_SEARCH_TERMS, MAX_SEARCH_WORDS } from '../../src/bible/search-query.ts';
import { ApiError } from '../../src/http/problem.ts';

/** The problem ftsQuery throws for `q`, or undefined when it accepts it. */
function refusal(q: string): ApiError['problem'] | undefined {
  try {
    ftsQuery(q);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error.problem;
    throw error;
  }
}

const words = (count: number, word = (index: number) => `w${index}`) => Array.from({ length: count }, (_, index) => word(index));

describe('ftsQuery', () => {
  test('quotes every word and phrase, so FTS5 syntax other than OR, -word and word* is searched as text', () => {
    expect(ftsQuery('amour "le monde"')).toBe('"amour" "le monde"');
    expect(ftsQuery('NEAR(god world) ab*')).toBe('"NEAR(god" "world)" "ab"*');
    expect(ftsQuery('*  -')).toBeUndefined();
  });

  test('OR, -word and word* are operators; misused, a 400 naming q', () => {
    expect(ftsQuery('love OR charity -hate gra*')).toBe('(("love" OR "charity") AND "gra"*) NOT "hate"');
    expect(ftsQuery('god or world')).toBe('"god" "or" "world"');
    for (const q of ['a*', 'OR god', 'god OR', '-god']) expect(() => ftsQuery(q), q).toThrow(/q cannot be searched/);
  });

  test('a repeated term is searched once, whatever its case or accents', () => {
    expect(ftsQuery(words(100, () => 'a').join(' '))).toBe('"a"');
    expect(ftsQuery('Éternel eternel ETERNEL "éternel"')).toBe('"Éternel"');
    expect(ftsQuery('"le monde" "Le  Monde" monde')).toBe('"le monde" "monde"');
  });

  test('the worst queries of issue 11 are cheap or refused', () => {
    expect(ftsQuery(words(100, () => 'a').join(' '))).toBe('"a"');
    const phrase = `"${words(66, () => 'de').join(' ')}"`;
    expect(refusal(phrase)).toMatchObject({ status: 400, parameter: 'q' });
  });

  test(`at most ${MAX_SEARCH_TERMS} different terms, else 400 naming q`, () => {
    expect(refusal(words(MAX_SEARCH_TERMS).join(' '))).toBeUndefined();
    const problem = refusal(words(MAX_SEARCH_TERMS + 1).join(' '));
    expect(problem).toMatchObject({ status: 400, parameter: 'q' });
    expect(problem?.detail).toContain(`at most ${MAX_SEARCH_TERMS} different words or phrases`);
  });

  test(`a phrase, or a word the tokenizer splits, holds at most ${MAX_PHRASE_WORDS} words`, () => {
    expect(refusal(`"${words(MAX_PHRASE_WORDS).join(' ')}"`)).toBeUndefined();
    expect(refusal(`"${words(MAX_PHRASE_WORDS + 1).join(' ')}"`)).toMatchObject({ status: 400, parameter: 'q' });
    expect(refusal(words(MAX_PHRASE_WORDS + 1, () => 'de').join('-'))).toMatchObject({ status: 400, parameter: 'q' });
    expect(refusal(words(MAX_PHRASE_WORDS + 1, () => "l'").join(''))).toMatchObject({ status: 400, parameter: 'q' });
  });

  test(`at most ${MAX_SEARCH_WORDS} words over all terms`, () => {
    const half = MAX_SEARCH_WORDS / 2;
    expect(refusal(`"${words(half).join(' ')}" "${words(half, (i) => `x${i}`).join(' ')}"`)).toBeUndefined();
    const problem = refusal(`"${words(half).join(' ')}" "${words(half + 1, (i) => `x${i}`).join(' ')}"`);
    expect(problem).toMatchObject({ status: 400, parameter: 'q' });
    expect(problem?.detail).toContain(`at most ${MAX_SEARCH_WORDS} words in all`);
  });
});
