// The compact search index builder writes, byte for byte, what MiniSearch itself serialises for the same verses.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { SearchIndexBuilder } from '../../../build/writers/search-index-builder.ts';
import { type SearchDocument, searchOptions } from '../../../build/writers/search-options.ts';

/** Verses that exercise the tokenizer and the term processing: case, accents, punctuation, repeats, empty text. */
const TEXTS = [
  'Au commencement, Dieu créa les cieux et la terre.',
  "Et l'Éternel dit: Que la lumière soit! Et la lumière fut.",
  'ÉTERNEL, éternel; Eternel — eternel…',
  '',
  'the LORD said unto my Lord, Sit thou at my right hand',
  'Holy, holy, holy, is the LORD of hosts: the whole earth is full of his glory.',
  '¿Quién es éste? «Jesús» respondió: “Yo soy”.',
  'João viu; Joao disse: ação, acção, AÇÃO!',
  '   spaces   and\ttabs\nand new lines   ',
  'In den beginne schiep God den hemel en de aarde.',
];

/** The chunks' bytes as one text. */
function text(chunks: Iterable<Uint8Array>): string {
  return Buffer.concat([...chunks]).toString('utf8');
}

function documents(): SearchDocument[] {
  return TEXTS.map((text, index) => ({ id: `GEN.1.${index + 1}`, usfm: 'GEN', chapter: 1, verse: index + 1, text }));
}

describe('SearchIndexBuilder', () => {
  it('serialises the same text as JSON.stringify of a MiniSearch given the same verses', () => {
    const builder = new SearchIndexBuilder();
    for (const document of documents()) builder.add(document);
    const miniSearch = new MiniSearch<SearchDocument>(searchOptions());
    miniSearch.addAll(documents());
    expect(text(builder.chunks())).toBe(JSON.stringify(miniSearch));
    expect(builder.documentCount).toBe(TEXTS.length);
  });

  it('still matches over enough verses to span several chunks', () => {
    const many = Array.from({ length: 3000 }, (_, index) => ({
      id: `PSA.${Math.floor(index / 20) + 1}.${(index % 20) + 1}`,
      usfm: 'PSA',
      chapter: Math.floor(index / 20) + 1,
      verse: (index % 20) + 1,
      text: `${TEXTS[index % TEXTS.length]} word${index % 97} Word${index % 13} mot${index}`,
    }));
    const builder = new SearchIndexBuilder();
    for (const document of many) builder.add(document);
    const chunks = [...builder.chunks()];
    const miniSearch = new MiniSearch<SearchDocument>(searchOptions());
    miniSearch.addAll(many);
    expect(chunks.length).toBeGreaterThan(2);
    expect(text(chunks)).toBe(JSON.stringify(miniSearch));
  });
});
