// Passages of endpoint /passage: parsed references checked against the version, bounded, and read from the database.
import { verseFromRow } from '../../build/contract/bible-database.ts';
import type { Lang } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import { formatReference, formatReferenceList, type PassageBounds } from '../../build/contract/reference-format.ts';
import type { PassageResponse, PassageSection } from '../../build/contract/response-schemas.ts';
import { bookRef, verseResponse } from '../../build/contract/responses.ts';
import { ApiError } from '../http/problem.ts';
import type { BibleQueries, VersePoint } from './queries.ts';
import { type PassageReference, parseReferences } from './reference/grammar.ts';
import { ReferenceSyntaxError } from './reference/reference-syntax-error.ts';

/**
 * The passages `ref` names in the version of `lang`, at most `maxVerses` verses in all.
 * Everything wrong with `ref` answers 400 naming ref: what the parser could not read, a
 * chapter or verse the version lacks, more than `maxVerses` verses.
 *
 * @example readPassages(queries, 'en', 'Gen 1:1-3; Ps 23', 500).reference // 'Genesis 1:1-3; Psalms 23'
 * @example readPassages(queries, 'fr', 'Jn 3,16', 500).reference          // 'Jean 3.16'
 */
export function readPassages(queries: BibleQueries, lang: Lang, ref: string, maxVerses: number): PassageResponse {
  const version = queries.version(lang);
  if (!version) throw new Error(`Bible database lacks the version for ${lang}`);
  const passages: PassageSection[] = [];
  const held: PassageBounds[] = [];
  let verseCount = 0;
  for (const reference of parseRef(ref, lang)) {
    const { section, bounds } = readPassage(queries, lang, reference, maxVerses - verseCount, maxVerses);
    verseCount += section.verses.length;
    passages.push(section);
    held.push(bounds);
  }
  return { lang, version: version.code, reference: formatReferenceList(lang, held), passages };
}

/** `ref` parsed, or a 400 naming ref with the parser's message. */
export function parseRef(ref: string, lang: Lang): PassageReference[] {
  try {
    return parseReferences(ref, lang);
  } catch (error) {
    if (error instanceof ReferenceSyntaxError) throw refProblem(`ref ${error.message}.`);
    throw error;
  }
}

/**
 * The concrete bounds of a passage in the version (a start past the end of its chapter or book
 * is refused, an end past it clamped, as the range endpoint does), or a 400 naming ref.
 */
export function resolvePassage(queries: BibleQueries, lang: Lang, reference: PassageReference): { from: VersePoint; to: VersePoint } {
  const book = queries.book(lang, reference.book.usfm);
  const name = reference.book.names[lang].name;
  if (!book) throw refProblem(`${name} is not in this version.`);
  const { from, to } = reference;
  if (from.chapter > book.chapters) {
    throw refProblem(`${reference.text}: ${name} has ${book.chapters} chapter${book.chapters === 1 ? '' : 's'}.`);
  }
  const fromLast = queries.lastVerse(lang, book.usfm, from.chapter);
  if (fromLast === undefined) throw refProblem(`${reference.text}: ${name} ${from.chapter} has no verses in this version.`);
  const fromVerse = from.verse ?? 1;
  if (fromVerse > fromLast) throw refProblem(`${reference.text}: ${name} ${from.chapter} ends at verse ${fromLast}.`);
  const toChapter = Math.min(to.chapter, book.chapters);
  const toLast = queries.lastVerse(lang, book.usfm, toChapter) ?? 0;
  const toVerse = to.verse === undefined || toChapter < to.chapter ? toLast : Math.min(to.verse, toLast);
  return { from: { chapter: from.chapter, verse: fromVerse }, to: { chapter: toChapter, verse: toVerse } };
}

/** One passage's section of the answer, and the bounds its normalised reference names. */
function readPassage(
  queries: BibleQueries,
  lang: Lang,
  reference: PassageReference,
  room: number,
  maxVerses: number,
): { section: PassageSection; bounds: PassageBounds } {
  const resolved = resolvePassage(queries, lang, reference);
  const rows = queries.passageVerses(lang, reference.book.usfm, resolved.from, resolved.to, room + 1);
  if (rows.length > room) throw tooManyVerses(maxVerses);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) throw refProblem(`${reference.text} has no verses in this version.`);
  const from = { chapter: first.chapter, verse: first.verse };
  const to = { chapter: last.chapter, verse: last.verse };
  const bounds = { book: reference.book, ...labelBounds(reference, from, to) };
  const section = {
    reference: formatReference(lang, bounds),
    book: bookRef(reference.book, lang),
    from,
    to,
    verses: rows.map((row) => ({ chapter: row.chapter, ...verseResponse(verseFromRow(row)) })),
  };
  return { section, bounds };
}

/**
 * The normalised reference of a passage found between `from` and `to`: as asked when whole
 * chapters were asked for and found ("Psaumes 23"), else with the verses held ("Jean 3.16-18").
 */
export function passageLabel(lang: Lang, reference: PassageReference, from: VersePoint, to: VersePoint): string {
  return formatReference(lang, { book: reference.book, ...labelBounds(reference, from, to) });
}

/** Whole chapters when whole chapters were asked for and found ("Psaumes 23"), else the verses held. */
function labelBounds(reference: PassageReference, from: VersePoint, to: VersePoint): Pick<PassageBounds, 'from' | 'to'> {
  const wholeChapters = reference.from.verse === undefined && reference.to.verse === undefined && to.chapter === reference.to.chapter;
  return wholeChapters ? { from: { chapter: from.chapter }, to: { chapter: to.chapter } } : { from, to };
}

function tooManyVerses(maxVerses: number): ApiError {
  return refProblem(`ref names more than ${maxVerses} verses, the most one request answers; ask for fewer or shorter passages.`);
}

function refProblem(detail: string): ApiError {
  return new ApiError(problems.invalidParameter('ref', detail));
}
