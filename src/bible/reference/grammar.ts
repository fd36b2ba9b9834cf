// The grammar of Bible references: one passage or a list, in a language's book names, into book and chapter:verse bounds.
import type { CanonBook, Lang } from '../../../build/contract/books.ts';
import { lookupBook } from './book-names.ts';
import { ReferenceSyntaxError } from './reference-syntax-error.ts';
import { type Token, tokenize } from './tokens.ts';

/** A point in a book. No verse: the chapter's first verse as a start, its last verse as an end. */
export interface ChapterVerse {
  chapter: number;
  verse?: number;
}

/** One passage: a book and its first and last chapter:verse, in reading order. */
export interface PassageReference {
  book: CanonBook;
  from: ChapterVerse;
  to: ChapterVerse;
  /** The passage as it was written, and where it began in the text. */
  text: string;
  offset: number;
}

/**
 * Books of one chapter, in which a single number is a verse ("Jude 3" is Jude 1:3). The
 * canon fixes them; every version of the five has them so.
 */
export const SINGLE_CHAPTER_BOOKS: ReadonlySet<string> = new Set(['OBA', 'PHM', '2JN', '3JN', 'JUD']);

/** Largest chapter or verse number read: larger ones cannot exist (Psalms has 150 chapters, Psalm 119 176 verses). */
const MAX_NUMBER = 999;

/**
 * The passages `text` names, in the order written. Grammar:
 *
 *     list     = passage { (";" | ",") passage }
 *     passage  = [book] location
 *     book     = [1-3 | I-III] word {word}          (see lookupBook)
 *     location = number [sep number] ["-" number [sep number]]    sep = ":" | "."
 *
 * `John 3` is a chapter, `John 3:16` a verse, `John 3:16-18` and `John 3:16-4:2` ranges,
 * `Ps 23-24` chapters. In a book of one chapter a lone number is a verse (`Jude 3`). A passage
 * without a book continues the previous one's: after `,` a number is a verse of the last chapter
 * when the previous passage named verses (`John 3:16, 18`), otherwise a chapter; after `;` it
 * is a chapter (`Ps 23; 24`). Throws ReferenceSyntaxError naming what it could not read.
 *
 * @example parseReferences('Jean 3.16-18', 'fr')[0]  // { book: JHN, from: { chapter: 3, verse: 16 }, to: { chapter: 3, verse: 18 }, … }
 */
export function parseReferences(text: string, lang: Lang): PassageReference[] {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ReferenceSyntaxError(0, '', 'expected a reference such as "John 3:16"');
  const reader = new TokenReader(text, tokens);
  const passages: PassageReference[] = [];
  let separator: Token | undefined;
  do {
    const previous = passages[passages.length - 1];
    passages.push(readPassage(reader, lang, previous, separator));
    separator = reader.peek();
    if (separator && separator.kind !== 'semicolon' && separator.kind !== 'comma') {
      throw reader.error(separator, 'expected ";" or "," between passages, or the end');
    }
    reader.next();
  } while (separator);
  return passages;
}

/** Walks the tokens; errors quote the text from a token to the end of the passage. */
class TokenReader {
  private index = 0;

  constructor(
    readonly text: string,
    private readonly tokens: readonly Token[],
  ) {}

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.index + ahead];
  }

  next(): Token | undefined {
    return this.tokens[this.index++];
  }

  /** Offset just past the last token read. */
  endOffset(): number {
    const last = this.tokens[this.index - 1];
    return last ? last.offset + last.text.length : 0;
  }

  error(token: Token | undefined, expected: string): ReferenceSyntaxError {
    if (!token) return new ReferenceSyntaxError(this.text.length, '', expected);
    return new ReferenceSyntaxError(token.offset, token.text, expected);
  }
}

function readPassage(
  reader: TokenReader,
  lang: Lang,
  previous: PassageReference | undefined,
  separator: Token | undefined,
): PassageReference {
  const start = reader.peek();
  if (!start) throw reader.error(start, 'expected a passage after the separator');
  const named = startsBook(reader) ? readBook(reader, lang) : undefined;
  if (!named && !previous) throw reader.error(start, 'expected a book name, abbreviation or USFM code');
  const book = named ?? previous!.book;
  const location = readLocation(reader, book);
  // Without a book, a lone number after "," in a passage of verses is another verse of its last chapter.
  const verseContext =
    !named && separator?.kind === 'comma' && previous?.to.verse !== undefined && location.fromVerse === undefined
      ? previous.to.chapter
      : undefined;
  const passage = interpret(book, location, verseContext);
  checkOrder(reader, start, passage);
  return { ...passage, text: reader.text.slice(start.offset, reader.endOffset()), offset: start.offset };
}

/** A book starts with a word, or with 1-3 directly followed by a word ("1 Cor", "1Co"), or I-III followed by a word. */
function startsBook(reader: TokenReader): boolean {
  const first = reader.peek();
  const second = reader.peek(1);
  if (first?.kind === 'word') return true;
  return first?.kind === 'number' && /^[1-3]$/.test(first.text) && second?.kind === 'word';
}

function readBook(reader: TokenReader, lang: Lang): CanonBook {
  const first = reader.peek()!;
  const words: string[] = [];
  const ordinal = /^(i{1,3})$/i.exec(first.text);
  if (first.kind === 'number' || (ordinal && reader.peek(1)?.kind === 'word')) {
    words.push(first.kind === 'number' ? first.text : String(ordinal![1]!.length));
    reader.next();
  }
  while (reader.peek()?.kind === 'word') words.push(reader.next()!.text);
  const written = reader.text.slice(first.offset, reader.endOffset());
  const found = lookupBook(lang, words.join(' '));
  if (found.book) return found.book;
  const names = found.candidates.map((book) => book.names[lang].name);
  const expected =
    names.length > 1
      ? `"${written}" could be ${names.join(', ')}; write more of the name`
      : `expected a book of lang ${lang}: a name, an abbreviation (see /api/v1/bible/books?lang=${lang}) or a USFM code such as JHN`;
  throw new ReferenceSyntaxError(first.offset, written, expected);
}

interface Location {
  first: number;
  fromVerse?: number;
  second?: number;
  toVerse?: number;
}

function readLocation(reader: TokenReader, book: CanonBook): Location {
  const first = readNumber(reader, `expected a chapter number after ${book.usfm}`);
  const location: Location = { first };
  if (reader.peek()?.kind === 'verse-separator') {
    reader.next();
    location.fromVerse = readNumber(reader, 'expected a verse number after the separator');
  }
  if (reader.peek()?.kind === 'dash') {
    reader.next();
    location.second = readNumber(reader, 'expected a number after "-"');
    if (reader.peek()?.kind === 'verse-separator') {
      reader.next();
      location.toVerse = readNumber(reader, 'expected a verse number after the separator');
    }
  }
  return location;
}

function readNumber(reader: TokenReader, expected: string): number {
  const token = reader.peek();
  if (token?.kind !== 'number') throw reader.error(token, expected);
  const value = Number(token.text);
  if (value < 1 || value > MAX_NUMBER) throw reader.error(token, `expected a chapter or verse number from 1 to ${MAX_NUMBER}`);
  reader.next();
  return value;
}

/** The bounds a location names in `book`; `verseChapter` set when its lone numbers are verses of that chapter. */
function interpret(book: CanonBook, location: Location, verseChapter?: number): Pick<PassageReference, 'book' | 'from' | 'to'> {
  const { first, fromVerse, second, toVerse } = location;
  const lonesAreVerses = verseChapter ?? (SINGLE_CHAPTER_BOOKS.has(book.usfm) ? 1 : undefined);
  const from: ChapterVerse =
    fromVerse !== undefined
      ? { chapter: first, verse: fromVerse }
      : lonesAreVerses !== undefined
        ? { chapter: lonesAreVerses, verse: first }
        : { chapter: first };
  let to: ChapterVerse;
  if (second === undefined) to = { ...from };
  else if (toVerse !== undefined) to = { chapter: second, verse: toVerse };
  else if (from.verse !== undefined) to = { chapter: from.chapter, verse: second };
  else to = { chapter: second };
  return { book, from, to };
}

function checkOrder(reader: TokenReader, start: Token, passage: Pick<PassageReference, 'from' | 'to'>): void {
  const { from, to } = passage;
  const backwards = to.chapter < from.chapter || (to.chapter === from.chapter && (to.verse ?? Infinity) < (from.verse ?? 0));
  if (backwards) {
    throw new ReferenceSyntaxError(start.offset, reader.text.slice(start.offset, reader.endOffset()), 'the range ends before it begins');
  }
}
