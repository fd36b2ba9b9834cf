// Real references of each language's publishers and churches (fixtures/<lang>.json), through the reader and back through the formatter.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { LANGS, type Lang } from '../../../build/contract/books.ts';
import { formatReferenceList } from '../../../build/contract/reference-format.ts';
import { type ChapterVerse, type PassageReference, parseReferences } from '../../../src/bible/reference/grammar.ts';
import { ReferenceSyntaxError } from '../../../src/bible/reference/reference-syntax-error.ts';

interface Fixture {
  lang: Lang;
  /** Label → the publishers or churches whose way of writing the entries follow. */
  usages: Record<string, string>;
  /** `means`: one passage each, "JHN 3:16", "JHN 3:16-18", "JHN 3:16-4:2", "PSA 23", "PSA 23-24", "GEN 1-2:4". */
  references: { ref: string; means: string[]; normalised: string; usage: string }[];
  /** References the reader must refuse, with where (0-based offset) and what it names. */
  refused: { ref: string; at: number; found: string; why: string }[];
}

const fixtures: Fixture[] = LANGS.map((lang) => JSON.parse(readFileSync(new URL(`./fixtures/${lang}.json`, import.meta.url), 'utf8')));

/** A passage in the fixtures' notation. */
function written({ book, from, to }: Pick<PassageReference, 'book' | 'from' | 'to'>): string {
  const point = ({ chapter, verse }: ChapterVerse) => (verse === undefined ? `${chapter}` : `${chapter}:${verse}`);
  let end = '';
  if (from.chapter === to.chapter && from.verse === to.verse) end = '';
  else if (from.chapter === to.chapter && from.verse !== undefined && to.verse !== undefined) end = `-${to.verse}`;
  else end = `-${point(to)}`;
  return `${book.usfm} ${point(from)}${end}`;
}

function refusal(text: string, lang: Lang): ReferenceSyntaxError {
  try {
    parseReferences(text, lang);
  } catch (error) {
    if (error instanceof ReferenceSyntaxError) return error;
    throw error;
  }
  throw new Error(`"${text}" was read as a reference in ${lang}`);
}

describe.each(fixtures)('references as $lang writes them', (fixture) => {
  const { lang } = fixture;

  test('the fixture holds at least 60 distinct references, each from a named usage', () => {
    expect(new Set(fixture.references.map((entry) => entry.ref)).size).toBeGreaterThanOrEqual(60);
    for (const entry of fixture.references) expect(Object.keys(fixture.usages), entry.ref).toContain(entry.usage);
  });

  test.each(fixture.references)('$ref means $means', ({ ref, means }) => {
    expect(parseReferences(ref, lang).map(written)).toEqual(means);
  });

  test.each(fixture.references)('$ref is written "$normalised", which reads back the same', ({ ref, means, normalised }) => {
    expect(formatReferenceList(lang, parseReferences(ref, lang))).toBe(normalised);
    expect(parseReferences(normalised, lang).map(written)).toEqual(means);
  });

  test.each(fixture.refused)('$ref is refused at character $at ($found)', ({ ref, at, found }) => {
    const error = refusal(ref, lang);
    expect([error.offset, error.found]).toEqual([at, found]);
    expect(error.message).toContain(`character ${at + 1}`);
  });
});
