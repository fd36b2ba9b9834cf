// Search of endpoint 13: a reference typed as the query answers with its passage first, then the verses matching its words, paged together.
import type { Lang } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import type { SearchHit } from '../../build/contract/response-schemas.ts';
import { bookRef } from '../../build/contract/responses.ts';
import { type PreparedJson, preparedJsonText } from '../http/cache.ts';
import { ApiError } from '../http/problem.ts';
import type { SearchParams } from './params.ts';
import { passageLabel, resolvePassage } from './passage.ts';
import type { BibleQueries, SearchScope, VersePoint } from './queries.ts';
import { type PassageReference, parseReferences } from './reference/grammar.ts';
import { ReferenceSyntaxError } from './reference/reference-syntax-error.ts';
import type { QueryPool } from './search-pool.ts';

/**
 * Page `params.page` of the results for q, as the answer's JSON (the paging envelope of
 * src/http/paging.ts, byte for byte): when q reads as one or more references in the language
 * (`Jn 3:16-18`, `1 Cor 13`), those passages' verses come first, marked `reference`; then, for every
 * q, the verses matching its words, marked `words`. A q that reads as a reference the version does
 * not have (a chapter past the book's end) is searched as words only. Both parts keep to the book and
 * testament filters. The word search runs on the pool's workers, which send its items serialised.
 */
export async function searchBible(queries: BibleQueries, pool: QueryPool, params: SearchParams): Promise<PreparedJson> {
  const { lang, size } = params;
  const offset = params.page * size;
  const scope: SearchScope = { usfm: params.book, testament: params.testament };
  const passages = referencedPassages(queries, lang, params.q, scope);
  const referenceTotal = passages.reduce((sum, passage) => sum + passage.count, 0);
  const items: SearchHit[] = [];
  let skip = offset;
  for (const passage of passages) {
    if (items.length >= size) break;
    if (skip >= passage.count) {
      skip -= passage.count;
      continue;
    }
    const rows = queries.passageVerses(lang, passage.reference.book.usfm, passage.from, passage.to, size - items.length, skip);
    skip = 0;
    const book = bookRef(passage.reference.book, lang);
    for (const row of rows) {
      items.push({
        match: 'reference',
        reference: passage.label,
        book,
        chapter: row.chapter,
        verse: row.verse,
        text: row.text,
        matches: [],
      });
    }
  }
  const words = await pool.run(
    'searchWords',
    lang,
    params.match,
    size - items.length,
    Math.max(0, offset - referenceTotal),
    scope,
    params.terms,
  );
  if (words.refused) throw new ApiError(tooCostly(words.refused));
  const totalItems = referenceTotal + words.totalItems;
  const referenceJson = items.length === 0 ? '' : JSON.stringify(items).slice(1, -1);
  const separator = referenceJson !== '' && words.itemsJson !== '' ? ',' : '';
  // The envelope of pageEnvelope (paging.ts), in its key order: a test compares the bytes with JSON.stringify of it.
  return preparedJsonText(
    `{"items":[${referenceJson}${separator}${words.itemsJson}],"page":${params.page},"size":${size},` +
      `"totalItems":${totalItems},"totalPages":${Math.ceil(totalItems / size)}}`,
  );
}

interface FoundPassage {
  reference: PassageReference;
  label: string;
  from: VersePoint;
  to: VersePoint;
  count: number;
}

function referencedPassages(queries: BibleQueries, lang: Lang, q: string, scope: SearchScope): FoundPassage[] {
  let references: PassageReference[];
  try {
    references = parseReferences(q, lang);
  } catch (error) {
    if (error instanceof ReferenceSyntaxError) return [];
    throw error;
  }
  const found: FoundPassage[] = [];
  for (const reference of references) {
    if (scope.usfm !== undefined && reference.book.usfm !== scope.usfm) continue;
    if (scope.testament !== undefined && reference.book.testament !== scope.testament) continue;
    let bounds: { from: VersePoint; to: VersePoint };
    try {
      bounds = resolvePassage(queries, lang, reference);
    } catch (error) {
      if (error instanceof ApiError) return [];
      throw error;
    }
    const count = queries.passageVerseCount(lang, reference.book.usfm, bounds.from, bounds.to);
    found.push({ reference, label: passageLabel(lang, reference, bounds.from, bounds.to), ...bounds, count });
  }
  return found;
}

/** The 400 for a search whose estimated cost is over the limit: it names q and says what makes a search costly. */
function tooCostly({ cost, limit }: { cost: number; limit: number }) {
  return problems.invalidParameter(
    'q',
    `q is too costly to search (about ${cost.toLocaleString('en-US')} index entries to read, at most ${limit.toLocaleString('en-US')}): ` +
      'very common words repeated in a quoted phrase, many very common words joined by OR, or a prefix* matching very many words. ' +
      'Add a rarer word, or use a longer prefix.',
  );
}
