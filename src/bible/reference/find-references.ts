// References in free text: where each passage a reader would recognise stands, read with the language's conventions (the reader of grammar.ts, tried on each likely span).
import type { Lang } from '../../../build/contract/books.ts';
import { bookByAnyName } from './book-names.ts';
import { type PassageReference, parseReferences } from './grammar.ts';
import { ReferenceSyntaxError } from './reference-syntax-error.ts';

/** A passage found in a text: what the reader read, and where it stands (UTF-16 offsets: `text.slice(start, end)`). */
export interface FoundReference {
  reference: PassageReference;
  start: number;
  end: number;
}

/** Longest span tried as one reference list: "1 Corinthiens 13,4-7.13 ; 15,1-3 et Ps 23" is under it. */
const MAX_SPAN = 80;
/** Words a book's name may take ("Cantique des cantiques", "Song of Solomon"), after its number. */
const MAX_NAME_WORDS = 4;

/** A word (letters, marks, apostrophes) or a number, as the scanner steps over the text. */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’]*/guy;
/** The characters a reference list is written with after its book. */
const REFERENCE_CHARACTERS = /[\p{L}\p{M}\p{N}'’\s:.,;\-‐‑‒–—]/u;

/**
 * Every passage `text` names as readers of `lang` write references, in order. A reference starts
 * with a book's name, abbreviation or USFM code the reader knows exactly (no mere beginning of a
 * name), written with a capital or after its number ("Jn", "1 Jean", "1Jn", "PSA"), followed by a
 * number; the longest span from there that the reader reads wholly is taken, its passages
 * reported one by one ("Jn 3,16 et Ps 23" is two). Work is linear in the text: each start tries at
 * most the tokens of MAX_SPAN characters.
 *
 * @example findReferences('Lisez Jn 3,16 et Ps 23.', 'fr').map((f) => [f.start, f.end]) // [[6, 13], [17, 22]]
 */
export function findReferences(text: string, lang: Lang): FoundReference[] {
  const found: FoundReference[] = [];
  let position = 0;
  while (position < text.length) {
    WORD.lastIndex = position;
    const match = nextWord(text, position);
    if (!match) break;
    const start = match.index;
    const nameEnd = bookNameEnd(text, start, lang);
    if (nameEnd === undefined) {
      position = start + match.text.length;
      continue;
    }
    const list = longestReading(text, start, nameEnd, lang);
    if (!list) {
      position = start + match.text.length;
      continue;
    }
    for (const reference of list.references) {
      const from = start + reference.offset;
      found.push({ reference, start: from, end: from + reference.text.length });
    }
    position = list.end;
  }
  return found;
}

/** The next word or number at or after `from` that starts at a word boundary. */
function nextWord(text: string, from: number): { index: number; text: string } | undefined {
  const pattern = /(?<![\p{L}\p{M}\p{N}])[\p{L}\p{N}][\p{L}\p{M}\p{N}'’]*/gu;
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match ? { index: match.index, text: match[0] } : undefined;
}

/**
 * Where the book's name starting at `start` ends, when one is written there and a number follows
 * (after an optional dot and spaces); else undefined. The longest name wins ("1 Jean" over "1").
 */
function bookNameEnd(text: string, start: number, lang: Lang): number | undefined {
  const words: { end: number; text: string }[] = [];
  let at = start;
  while (words.length < MAX_NAME_WORDS + 1) {
    WORD.lastIndex = at;
    const word = WORD.exec(text);
    if (!word) break;
    words.push({ end: at + word[0].length, text: word[0] });
    // Words of one name are apart by one space or hyphen, or none between a number and a name ("1Jn").
    const gap = /^[ -]?/.exec(text.slice(word.index + word[0].length, word.index + word[0].length + 1))![0];
    at = word.index + word[0].length + gap.length;
    if (at >= text.length || !/[\p{L}\p{N}]/u.test(text[at]!)) break;
  }
  for (let count = words.length; count >= 1; count--) {
    const name = text.slice(start, words[count - 1]!.end);
    const first = words[0]!.text;
    // Capitalised, or after its number: "is 5" in English is no reference to Isaiah.
    const written = /^[0-9]/.test(first) ? (words[1]?.text ?? '') : first;
    if (/^[0-9]+$/.test(name) || !/^\p{Lu}/u.test(written)) continue;
    if (!bookByAnyName(lang, name)) continue;
    const after = /^\.?\s*[0-9]/.exec(text.slice(words[count - 1]!.end, words[count - 1]!.end + 4));
    if (after) return words[count - 1]!.end;
  }
  return undefined;
}

/** The passages of the longest span from `start` the reader reads wholly, and where it ends; undefined when none. */
function longestReading(
  text: string,
  start: number,
  nameEnd: number,
  lang: Lang,
): { references: PassageReference[]; end: number } | undefined {
  let limit = nameEnd;
  while (limit < text.length && limit - start < MAX_SPAN && REFERENCE_CHARACTERS.test(text[limit]!)) limit++;
  // Candidate ends: after each digit, from the furthest; a reference ends on a number or a part letter.
  const ends: number[] = [];
  for (let index = limit; index > nameEnd; index--) {
    if (/[0-9a-f]/.test(text[index - 1]!) && !/[\p{L}\p{N}]/u.test(text[index] ?? ' ')) ends.push(index);
  }
  // Where the reader stopped, the span is cut: the next end tried is before the part it could not read, so a
  // span costs a few readings, not one per character.
  let before = Number.POSITIVE_INFINITY;
  for (const end of ends) {
    if (end > before) continue;
    try {
      const references = parseReferences(text.slice(start, end), lang);
      if (references.length > 0) return { references, end };
    } catch (error) {
      if (!(error instanceof ReferenceSyntaxError)) throw error;
      before = Math.min(end - 1, start + error.offset);
    }
  }
  return undefined;
}
