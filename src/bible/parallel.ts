// Endpoint /parallel: a passage read in the first language's conventions and numbering, and each other version's verses aligned with it through the versification mapping (verse_pivots).
import { Type } from '@sinclair/typebox';
import { verseFromRow } from '../../build/contract/bible-database.ts';
import { LANGS, type Lang } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import { formatReference, formatReferenceList, type PassageBounds } from '../../build/contract/reference-format.ts';
import type { ParallelPassage, ParallelResponse } from '../../build/contract/response-schemas.ts';
import { bookRef, verseResponse } from '../../build/contract/responses.ts';
import type { QueryParameter } from '../http/endpoint.ts';
import { ApiError } from '../http/problem.ts';
import { langNamed, parseRefParameter } from './params.ts';
import { parseRef, resolvePassage } from './passage.ts';
import type { BibleQueries, PassageVerseRow } from './queries.ts';

/**
 * The most verses of the first language one /parallel request answers, whatever
 * BIBLE_PASSAGE_MAX_VERSES says: each is sent once per language asked for (Psalm 119, 176 verses, fits).
 */
export const PARALLEL_MAX_VERSES = 200;

type PassageVerse = ReturnType<typeof passageVerse>;

/** `langs`: one to five distinct languages, comma-separated, any letter case; `ref` is read in the first. */
export const langsParameter: QueryParameter<'langs', Lang[]> = {
  name: 'langs',
  required: true,
  schema: Type.String({ pattern: `^[A-Za-z]{2}(,[A-Za-z]{2}){0,${LANGS.length - 1}}$` }),
  example: 'en,fr',
  description: `The languages, comma-separated, each once (one to ${LANGS.length} of ${LANGS.join(', ')}, any letter case): \`ref\` is read as readers of the first write references, in its version's numbering. Anything else: 400 naming langs.`,
  read(raw) {
    const bad = (detail: string) => new ApiError(problems.invalidParameter('langs', detail));
    if (raw !== undefined && typeof raw !== 'string') throw bad('langs must be given once.');
    if (raw === undefined || raw.trim() === '') throw bad(`langs (languages, comma-separated, such as "en,fr") is required.`);
    const names = raw.split(',');
    if (names.length > LANGS.length) throw bad(`langs lists at most ${LANGS.length} languages; got ${names.length}.`);
    const langs: Lang[] = [];
    for (const name of names) {
      const lang = langNamed(name.trim());
      if (!lang) throw bad(`langs: "${name.slice(0, 20)}" is not one of ${LANGS.join(', ')}.`);
      if (langs.includes(lang)) throw bad(`langs names ${lang} twice.`);
      langs.push(lang);
    }
    return langs;
  },
};

/** `ref` of /parallel: as /passage's, read in the first language of `langs`. */
export const parallelRefParameter: QueryParameter<'ref', string> = {
  name: 'ref',
  required: true,
  schema: Type.String({ minLength: 1 }),
  example: 'Ex 8:1-4',
  description: ({ biblePassageMaxVerses }) =>
    `One or more passages, as /passage reads \`ref\` (docs/references.md), in the conventions, book names and verse numbering of the first language of \`langs\`: \`Ex 8:1\` with \`langs=en,fr\` is KJV Exodus 8:1, which LSG numbers 7:26. At most ${Math.min(biblePassageMaxVerses, PARALLEL_MAX_VERSES)} verses of the first language in all. What cannot be read, a chapter or verse the first version lacks, too many verses: 400 naming ref.`,
  read: (raw) => parseRefParameter(raw),
};

/**
 * The passages `ref` names in the first language of `langs`, and each row of verses aligned with
 * the other versions: a verse of the first language, the verses of each other version that share a
 * pivot verse with it (none: an empty list), rows joined when a verse of another version holds what
 * two of the first hold. Nothing is matched by number: only the mapping's pivot rows pair verses.
 *
 * @example readParallel(queries, ['en', 'fr'], 'Ex 8:1', 200).passages[0].rows // [{ en: [Exodus 8:1], fr: [Exode 7:26] }]
 */
export function readParallel(queries: BibleQueries, langs: readonly Lang[], ref: string, maxVerses: number): ParallelResponse {
  const [first] = langs;
  if (first === undefined) throw new Error('readParallel needs a language');
  const versions = langs.map((lang) => {
    const version = queries.version(lang);
    if (!version) throw new Error(`Bible database lacks the version for ${lang}`);
    return { lang, version: version.code, attribution: version.attribution };
  });
  const passages: ParallelPassage[] = [];
  const held: PassageBounds[] = [];
  let room = maxVerses;
  for (const reference of parseRef(ref, first)) {
    const { from, to } = resolvePassage(queries, first, reference);
    const verses = queries.passageVerses(first, reference.book.usfm, from, to, room + 1);
    if (verses.length > room) {
      throw new ApiError(
        problems.invalidParameter('ref', `ref names more than ${maxVerses} verses, the most one parallel request answers; ask for fewer.`),
      );
    }
    room -= verses.length;
    const firstVerse = verses[0];
    const lastVerse = verses[verses.length - 1];
    if (!firstVerse || !lastVerse) throw new ApiError(problems.invalidParameter('ref', `${reference.text} has no verses in this version.`));
    const book = reference.book;
    held.push({ book, from: point(firstVerse), to: point(lastVerse) });
    // Per verse of the first language (by "chapter:verse"), each other language's verses holding what it holds.
    const aligned = new Map<string, Map<Lang, PassageVerse[]>>();
    for (const other of langs.slice(1)) {
      for (const row of queries.alignedVerses(first, book.usfm, from, to, other)) {
        const key = `${row.fromChapter}:${row.fromVerse}`;
        let byLang = aligned.get(key);
        if (!byLang) aligned.set(key, (byLang = new Map()));
        const list = byLang.get(other) ?? [];
        list.push(passageVerse(row));
        byLang.set(other, list);
      }
    }
    const rows = alignedRows(langs, verses, aligned);
    const references = Object.fromEntries(
      langs.map((lang) => {
        const all = rows.flatMap((row) => row[lang] ?? []);
        const start = all[0];
        const end = all[all.length - 1];
        return [lang, start && end ? formatReference(lang, { book, from: point(start), to: point(end) }) : null];
      }),
    );
    passages.push({ references, book: bookRef(book, first), rows });
  }
  return { langs: [...langs], reference: formatReferenceList(first, held), versions, passages };
}

/**
 * One row per verse of the first language, with each other language's counterparts; a row that
 * shares a verse of another language with the row before joins it (one verse of that version holds
 * what two of the first hold), so every verse appears once.
 */
function alignedRows(
  langs: readonly Lang[],
  verses: readonly PassageVerseRow[],
  aligned: ReadonlyMap<string, ReadonlyMap<Lang, PassageVerse[]>>,
): ParallelPassage['rows'] {
  const rows: Record<string, PassageVerse[]>[] = [];
  for (const row of verses) {
    const counterparts = aligned.get(`${row.chapter}:${row.verse}`);
    const previous = rows[rows.length - 1];
    const shares =
      previous !== undefined &&
      langs.slice(1).some((lang) => (counterparts?.get(lang) ?? []).some((verse) => previous[lang]!.some((held) => same(held, verse))));
    if (previous && shares) {
      previous[langs[0]!]!.push(passageVerse(row));
      for (const lang of langs.slice(1)) {
        for (const verse of counterparts?.get(lang) ?? [])
          if (!previous[lang]!.some((held) => same(held, verse))) previous[lang]!.push(verse);
      }
      continue;
    }
    rows.push(
      Object.fromEntries(langs.map((lang, index) => [lang, index === 0 ? [passageVerse(row)] : [...(counterparts?.get(lang) ?? [])]])),
    );
  }
  return rows;
}

function passageVerse(row: PassageVerseRow) {
  return { chapter: row.chapter, ...verseResponse(verseFromRow(row)) };
}

function point(verse: { chapter: number; verse: number }) {
  return { chapter: verse.chapter, verse: verse.verse };
}

function same(a: { chapter: number; verse: number }, b: { chapter: number; verse: number }): boolean {
  return a.chapter === b.chapter && a.verse === b.verse;
}
