// Endpoint 12's answer: verses from..to of one chapter, read from the query database, in the shape of the chapter files.
import { verseFromRow } from '../../build/contract/bible-database.ts';
import { bookByUsfm, type Lang } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import type { ChapterResponse } from '../../build/contract/response-schemas.ts';
import { chapterResponse } from '../../build/contract/responses.ts';
import { type PreparedJson, prepareJson } from '../http/cache.ts';
import { ApiError } from '../http/problem.ts';
import type { AnswerCache } from './answer-cache.ts';
import { parseBook, parseChapter, parsePositiveInteger } from './params.ts';
import type { BibleQueries, BookRow } from './queries.ts';

/** A bound of the range as the path gave it: the parameter's name (`from`, `to` or `verse`) and its text. */
export type RangeBound = readonly [name: string, text: string];

/**
 * Verses `from`..`to` of chapter `chapterText` of book `abbr` in `lang`, serialised, or an ApiError
 * naming what is wrong (unknown book, chapter outside the book, reversed range, start past the
 * chapter's end, verses the version lacks). An end past the chapter's last verse is clamped;
 * from/to in the answer say which verses it holds. Once the parameters are read, the answer is
 * taken from `answers` when the same verses were asked for before (by any name of the book).
 *
 * @example readRange(queries, answers, 'en', 'John', '3', ['from', '16'], ['to', '18']).json
 */
export function readRange(
  queries: BibleQueries,
  answers: AnswerCache,
  lang: Lang,
  abbr: string,
  chapterText: string,
  fromBound: RangeBound,
  toBound: RangeBound,
): PreparedJson {
  const book = parseBook(queries, lang, abbr);
  const chapter = parseChapter(book, chapterText);
  const from = parsePositiveInteger(...fromBound);
  const to = parsePositiveInteger(...toBound);
  if (from > to) throw new ApiError(problems.reversedVerseRange(from, to));
  // Read values only: one key per set of verses, whatever the spelling of the path.
  return answers.remember(`range ${lang} ${book.usfm} ${chapter} ${from} ${to}`, () =>
    prepareJson(rangeResponse(queries, lang, book, chapter, from, to)),
  );
}

/** The answer of a range whose parameters are read; the errors that depend on the chapter's verses. */
function rangeResponse(queries: BibleQueries, lang: Lang, book: BookRow, chapter: number, from: number, to: number): ChapterResponse {
  const last = queries.lastVerse(lang, book.usfm, chapter);
  if (last === undefined) throw new ApiError(problems.chapterWithoutVerses(book.name, chapter));
  if (from > last) throw new ApiError(problems.verseOutsideChapter(book.name, chapter, from, last));
  const verses = queries.verseRange(lang, book.usfm, chapter, from, Math.min(to, last)).map(verseFromRow);
  // A gap: the source leaves out verses that other versions number (RVR, STV and BLIVRE lack a few).
  if (verses.length === 0) throw new ApiError(problems.versesMissing(book.name, chapter, from, Math.min(to, last)));
  const canon = bookByUsfm(book.usfm);
  const version = queries.version(lang);
  if (!canon || !version) throw new Error(`Bible database lacks ${canon ? 'the version' : 'the canon book'} for ${lang} ${book.usfm}`);
  // Same shape and serialisation as the static chapter files: from/to say which verses it holds.
  const navigation = { ...queries.neighbours(lang, book.usfm, chapter), verseCount: last, attribution: version.attribution };
  return chapterResponse(lang, version.code, canon, chapter, verses, navigation);
}
