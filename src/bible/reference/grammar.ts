// The reader of Bible references as each language writes them: one passage or a list, into book and chapter:verse bounds.
import type { CanonBook, Lang } from '../../../build/contract/books.ts';
import { lookupBook } from './book-names.ts';
import { CONVENTIONS, folded, type ReferenceConventions } from './conventions.ts';
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

/** Longest text read, in characters: a long list of passages; the reader's work grows linearly with it. */
export const MAX_REFERENCE_LENGTH = 1000;

/** Largest chapter or verse number read: larger ones cannot exist (Psalms has 150 chapters, Psalm 119 176 verses). */
const MAX_NUMBER = 999;

/**
 * The passages `text` names, in the order written, read with the conventions of `lang`
 * (docs/references.md):
 *
 *     list     = passage { (";" | "," | conjunction) passage | listSep item }
 *     passage  = [book] location
 *     location = chapter [sep verse [marker]] ["-" number [sep verse]]
 *     item     = verse ["-" number [sep verse]] | location
 *
 * The first separator after a chapter says how the passage is written: `:` (`Jn 3:16`), `.`
 * (`Jean 3.16`) or, in French, Spanish, Portuguese and Dutch, `,` (`Jn 3,16`). With `:` or `.`,
 * "," lists verses (`John 3:16, 18`); with `,`, "." lists verses (`Mc 3,2-7.12`), and so does a
 * "," after a verse (`Ps 22, 1-2a, 3b-4`). In English "," after a chapter lists chapters
 * (`Ps 23, 24`). ";" starts a passage of another chapter or book; a lone number after it is a
 * chapter. In a book of one chapter a lone number is a verse (`Jude 3`). A part letter (`14a`)
 * is read as its whole verse; `s`/`f` (the next verse) is read, `ss`/`ff` (the following ones,
 * end unsaid) is refused. Where the language's readers could mean two passages, the reader
 * refuses rather than guess.
 *
 * Throws ReferenceSyntaxError naming what it could not read or tell, and where.
 *
 * @example parseReferences('Jn 3,16', 'fr')[0]  // { book: JHN, from: { chapter: 3, verse: 16 }, to: { chapter: 3, verse: 16 }, … }
 * @example parseReferences('John 3:16,18', 'en').length  // 2
 */
export function parseReferences(text: string, lang: Lang): PassageReference[] {
  if (text.length > MAX_REFERENCE_LENGTH) {
    throw new ReferenceSyntaxError(
      MAX_REFERENCE_LENGTH,
      text.slice(MAX_REFERENCE_LENGTH, MAX_REFERENCE_LENGTH + 10),
      `a reference is at most ${MAX_REFERENCE_LENGTH} characters`,
    );
  }
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ReferenceSyntaxError(0, '', 'expected a reference such as "John 3:16"');
  return new ReferenceReader(text, tokens, lang).read();
}

/** How the current passage separates chapter from verse: its list separators follow from it. */
type Style = ':' | '.' | ',';

/** Where the reader stands after a passage: what a lone number after a list separator belongs to. */
interface Context {
  book: CanonBook;
  /** The chapter a lone verse belongs to. */
  chapter: number;
  /** The last passage ended on a verse (else on a whole chapter). */
  verses: boolean;
  style: Style | undefined;
  /** The last verse named, for the order of a list written with ",". */
  lastVerse: number | undefined;
}

type Bounds = Pick<PassageReference, 'from' | 'to'>;

class ReferenceReader {
  private index = 0;
  private readonly passages: PassageReference[] = [];
  private context: Context | undefined;
  private readonly conventions: ReferenceConventions;

  constructor(
    private readonly text: string,
    private readonly tokens: readonly Token[],
    private readonly lang: Lang,
  ) {
    this.conventions = CONVENTIONS[lang];
  }

  read(): PassageReference[] {
    this.passageWithBook();
    while (this.peek()) this.nextElement();
    return this.passages;
  }

  /** What follows a passage: a separator and the passage or item after it, or a final dot. */
  private nextElement(): void {
    const token = this.peek()!;
    const context = this.context!;
    if (token.kind === 'semicolon') {
      this.index++;
      if (!this.peek()) throw this.error(undefined, 'expected a passage after ";"');
      if (this.startsBook()) this.passageWithBook();
      else this.location(context.book);
      return;
    }
    if (this.isConjunction(token)) {
      this.index++;
      if (this.startsBook()) this.passageWithBook();
      else this.item(context, 'conjunction');
      return;
    }
    if (token.kind === 'comma' || token.kind === 'dot') {
      if (token.kind === 'dot' && this.index === this.tokens.length - 1) {
        this.index++; // the full stop of a sentence
        return;
      }
      this.index++;
      const separator = token.kind === 'comma' ? ',' : '.';
      if (separator === ',' && this.startsBook()) this.passageWithBook();
      else if (!this.peek()) throw this.error(undefined, `expected a passage after "${token.text}"`);
      else if (this.listsAfter(context, separator)) this.item(context, separator);
      else throw this.error(token, this.expectedBetween(context));
      return;
    }
    throw this.error(token, this.expectedBetween(context));
  }

  private expectedBetween(context: Context): string {
    const list = context.verses
      ? context.style === ','
        ? '"." or ","'
        : '","'
      : this.conventions.commaAfterChapter === 'chapter-list'
        ? '","'
        : '';
    return `expected ";" between passages${list ? `, ${list} between verses or chapters` : ''}, or the end`;
  }

  /** Whether `separator` lists verses (or, in English, chapters) after the passage just read. */
  private listsAfter(context: Context, separator: ',' | '.'): boolean {
    if (context.verses) return separator === ',' || context.style === ',';
    return separator === ',' && this.conventions.commaAfterChapter === 'chapter-list';
  }

  private passageWithBook(): void {
    const start = this.peek();
    if (!start || !this.startsBook()) throw this.error(start, 'expected a book name, abbreviation or USFM code');
    const book = this.readBook();
    this.location(book, start);
  }

  /** A chapter, a verse or a range, in `book`, from the current token; its passage starts at `start`. */
  private location(book: CanonBook, start: Token = this.peek()!): void {
    const oneChapter = SINGLE_CHAPTER_BOOKS.has(book.usfm);
    const first = this.readNumber(`expected a chapter number after ${book.usfm}`);
    let style: Style | undefined;
    let from: ChapterVerse;
    let to: ChapterVerse;
    const separator = this.chapterSeparator(first, oneChapter);
    if (separator) {
      this.index++;
      style = separator;
      const verse = this.readNumber('expected a verse number after the separator');
      from = { chapter: first, verse };
      to = this.rangeEnd(from, style) ?? this.nextOne({ ...from });
    } else if (oneChapter) {
      // "Jude 3": a verse of the only chapter, its list separators those of the language's usual style.
      style = this.conventions.commaAfterChapter === 'verse' ? ',' : ':';
      from = { chapter: 1, verse: first };
      to = this.rangeEnd(from, style) ?? this.nextOne({ ...from });
    } else {
      from = { chapter: first };
      to = this.nextOne({ chapter: first });
      if (this.peek()?.kind === 'dash' && to.chapter === first) {
        this.index++;
        const second = this.readNumber('expected a number after "-"');
        const endSeparator = this.chapterSeparator(second, false);
        if (endSeparator) {
          this.index++;
          style = endSeparator;
          to = { chapter: second, verse: this.readNumber('expected a verse number after the separator') };
        } else {
          to = { chapter: second };
        }
      }
    }
    this.push(book, { from, to }, start, style);
  }

  /**
   * The separator after chapter `chapter` when it separates chapter from verse here, else
   * undefined. ":" always does; "." and "," when a number follows, except in a book of one
   * chapter after a number above 1 ("Jude 3, 5" lists verses). In English "," does not, and
   * "3,16" with no space is refused: chapter 3 verse 16, or chapters 3 and 16?
   */
  private chapterSeparator(chapter: number, oneChapter: boolean): Style | undefined {
    const token = this.peek();
    const after = this.peek(1);
    if (token?.kind === 'colon') return ':';
    if ((token?.kind !== 'dot' && token?.kind !== 'comma') || after?.kind !== 'number') return undefined;
    if (oneChapter && chapter > 1) return undefined;
    if (token.kind === 'dot') return '.';
    if (this.conventions.commaAfterChapter === 'verse') return ',';
    if (!token.spaced && !after.spaced) {
      const written = `${chapter},${after.text}`;
      throw new ReferenceSyntaxError(
        token.offset,
        token.text,
        `in ${this.lang === 'en' ? 'English' : this.lang} "${written}" could be chapter ${chapter} verse ${after.value} (write ${chapter}:${after.value}) or chapters ${chapter} and ${after.value} (write ${chapter}; ${after.value})`,
        { ambiguous: true },
      );
    }
    return undefined;
  }

  /**
   * After a first verse: "-" and the range's end, a verse of the same chapter or a chapter and
   * verse ("3:16-4:2"). With "," between chapter and verse, "-27,66" after chapter 26 is 27:66;
   * "-2, 3" after Psalm 22 ends on verse 2 and lists verse 3 (a chapter cannot go back).
   */
  private rangeEnd(from: ChapterVerse, style: Style): ChapterVerse | undefined {
    if (this.peek()?.kind !== 'dash') return undefined;
    this.index++;
    const second = this.readNumber('expected a number after "-"');
    const separator = this.peek();
    if (this.peek(1)?.kind === 'number' && separator) {
      const crossesChapter =
        separator.kind === 'colon' ||
        (separator.kind === 'dot' && style !== ',') ||
        (separator.kind === 'comma' && style === ',' && second > from.chapter);
      if (crossesChapter) {
        this.index++;
        return { chapter: second, verse: this.readNumber('expected a verse number after the separator') };
      }
    }
    if (separator?.kind === 'colon') throw this.error(this.peek(1), 'expected a verse number after the separator');
    return { chapter: from.chapter, verse: second };
  }

  /**
   * A marker after a verse or a chapter: "s" or "f" adds the next one ("3,16s" is 3:16-17);
   * "ss", "ff" or "e.v." do not say where the passage ends, and are refused.
   */
  private nextOne(bound: ChapterVerse): ChapterVerse {
    const marker = this.marker();
    if (!marker) return bound;
    const first = this.peek()!;
    const last = this.peek(marker.length - 1)!;
    if (this.conventions.following.includes(marker.key)) {
      throw new ReferenceSyntaxError(
        first.offset,
        this.text.slice(first.offset, last.offset + last.text.length),
        `"and the following" does not say where the passage ends; write its last ${bound.verse === undefined ? 'chapter' : 'verse'} after "-"`,
        { ambiguous: true },
      );
    }
    this.index += marker.length;
    return bound.verse === undefined ? { chapter: bound.chapter + 1 } : { chapter: bound.chapter, verse: bound.verse + 1 };
  }

  /**
   * The marker at the current token, one or two words with their abbreviation dots ("s", "ss.",
   * "e.v."): its folded key and how many tokens it takes. A dot after it with a number next is a
   * list separator, not the marker's ("3,2s.10").
   */
  private marker(): { key: string; length: number } | undefined {
    const first = this.peek();
    if (first?.kind !== 'word') return undefined;
    const markers = [...this.conventions.nextOne, ...this.conventions.following];
    const withDot = (length: number) => {
      const dot = this.peek(length);
      return dot?.kind === 'dot' && dot.afterWord && this.peek(length + 1)?.kind !== 'number' ? length + 1 : length;
    };
    const between = this.peek(1)?.kind === 'dot' && this.peek(1)!.afterWord ? 1 : 0;
    const second = this.peek(1 + between);
    if (second?.kind === 'word' && !second.spaced) {
      const key = folded(first.text + second.text);
      if (markers.includes(key)) return { key, length: withDot(2 + between) };
    }
    const key = folded(first.text);
    return markers.includes(key) ? { key, length: withDot(1) } : undefined;
  }

  /**
   * After a list separator in a passage of verses: a verse or range of the same chapter
   * ("3:16, 18-20", "3,2-7.12"), or a chapter and verse where the separator after the number
   * cannot be a list separator ("3:16, 4:2"; "8,3-5.9,13-16" with "," after ".").
   */
  private item(context: Context, via: ',' | '.' | 'conjunction'): void {
    if (!context.verses) {
      this.location(context.book);
      return;
    }
    const start = this.peek()!;
    const number = start.kind === 'number' ? start.value! : undefined;
    const separator = this.peek(1);
    const isChapter =
      number !== undefined &&
      this.peek(2)?.kind === 'number' &&
      (separator?.kind === 'colon' ||
        (separator?.kind === 'dot' && context.style !== ',') ||
        (separator?.kind === 'comma' && context.style === ',' && via !== ',' && number > context.chapter));
    if (isChapter) {
      this.location(context.book);
      return;
    }
    const verse = this.readNumber('expected a verse number');
    if (context.style === ',' && context.lastVerse !== undefined && verse <= context.lastVerse) {
      throw new ReferenceSyntaxError(
        start.offset,
        start.text,
        `after verse ${context.lastVerse} of chapter ${context.chapter}, "${verse}" would be an earlier verse of that chapter, or chapter ${verse}; list verses in order, and write ";" before another chapter ("${context.chapter},${context.lastVerse} ; ${verse},…")`,
        { ambiguous: true },
      );
    }
    const from = { chapter: context.chapter, verse };
    const to = this.rangeEnd(from, context.style ?? ':') ?? this.nextOne({ ...from });
    this.push(context.book, { from, to }, start, context.style);
  }

  private push(book: CanonBook, bounds: Bounds, start: Token, style: Style | undefined): void {
    const { from, to } = bounds;
    const text = this.text.slice(start.offset, this.endOffset());
    const backwards = to.chapter < from.chapter || (to.chapter === from.chapter && (to.verse ?? Infinity) < (from.verse ?? 0));
    if (backwards) throw new ReferenceSyntaxError(start.offset, text, 'the range ends before it begins');
    this.passages.push({ book, from, to, text, offset: start.offset });
    this.context = { book, chapter: to.chapter, verses: to.verse !== undefined, style, lastVerse: to.verse };
  }

  /**
   * A book starts with a word, or with 1-3 directly followed by a word ("1 Cor", "1Co", "1er Jean",
   * "1ª Juan"). A conjunction or marker is never the start of a book.
   */
  private startsBook(): boolean {
    const first = this.peek();
    const second = this.peek(1);
    if (first?.kind === 'word') return !this.isConjunction(first);
    if (first?.kind !== 'number' || first.value! < 1 || first.value! > 3 || second?.kind !== 'word') return false;
    // "2s" in "3,16, 2s" is verse 2 and the next one; "1S 3" is 1 Samuel 3.
    const marker = !second.spaced && [...this.conventions.nextOne, ...this.conventions.following].includes(folded(second.text));
    return !marker || this.peek(2)?.kind === 'number';
  }

  private isConjunction(token: Token): boolean {
    return token.kind === 'word' && this.conventions.conjunctions.includes(folded(token.text));
  }

  /** A book's words from the current token: an optional number or ordinal, then words, looked up as written. */
  private readBook(): CanonBook {
    const first = this.peek()!;
    if (first.kind === 'number') this.index++;
    // Words, and the abbreviations' dots among and after them ("Song of Sol.", "1 Co.").
    while (this.peek()?.kind === 'word' || (this.peek()?.kind === 'dot' && this.peek()!.afterWord)) this.index++;
    const written = this.text.slice(first.offset, this.endOffset());
    const found = lookupBook(this.lang, written);
    if (found.book) return found.book;
    const names = found.candidates.map((book) => book.names[this.lang].name);
    const expected =
      names.length > 1
        ? `"${written}" could be ${names.join(', ')}; write more of the name`
        : `expected a book of lang ${this.lang}: a name, an abbreviation (see /api/v1/bible/books?lang=${this.lang}) or a USFM code such as JHN`;
    throw new ReferenceSyntaxError(first.offset, written, expected);
  }

  private readNumber(expected: string): number {
    const token = this.peek();
    if (token?.kind !== 'number') throw this.error(token, expected);
    const value = token.value!;
    if (value < 1 || value > MAX_NUMBER) throw this.error(token, `expected a chapter or verse number from 1 to ${MAX_NUMBER}`);
    this.index++;
    return value;
  }

  private peek(ahead = 0): Token | undefined {
    return this.tokens[this.index + ahead];
  }

  /** Offset just past the last token read. */
  private endOffset(): number {
    const last = this.tokens[this.index - 1];
    return last ? last.offset + last.text.length : 0;
  }

  private error(token: Token | undefined, expected: string): ReferenceSyntaxError {
    if (!token) return new ReferenceSyntaxError(this.text.length, '', expected);
    return new ReferenceSyntaxError(token.offset, token.text, expected);
  }
}
