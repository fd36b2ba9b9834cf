import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { splitWords } from '../../../build/writers/split-words.ts';

const miniSearchTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

describe('splitWords', () => {
  it.each([
    ['', 'an empty text'],
    [',', 'a separator alone'],
    [', a', 'a leading separator'],
    ['a ,', 'a trailing separator'],
    ['In the beginning, God created the heaven and the earth.', 'English'],
    ['Au commencement, Dieu créa les cieux et la terre. ¿Qué? «L’Éternel» — fin…', 'accents, quotes and dashes'],
    ['a\u00a0b\u2003c\u3000d\r\ne', 'other spaces and line ends'],
    ['a\u{10100}b \u{1F600}x \u{1E95E}y', 'characters beyond U+FFFF, punctuation and not'],
    ['a\ud800,b\udc00 \udc00\ud800', 'lone surrogates'],
  ])('splits %j as MiniSearch’s default tokenizer does (%s)', (text) => {
    expect(splitWords(text)).toEqual(miniSearchTokenize(text));
  });
});
