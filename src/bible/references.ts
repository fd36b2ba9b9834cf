// Endpoint /references: the passages a free text names, where each stands, and what each holds in the version.
import { Type } from '@sinclair/typebox';
import type { Lang } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import type { FoundReferenceListResponse } from '../../build/contract/response-schemas.ts';
import { bookRef } from '../../build/contract/responses.ts';
import type { QueryParameter } from '../http/endpoint.ts';
import { ApiError } from '../http/problem.ts';
import { passageLabel, resolvePassage } from './passage.ts';
import type { BibleQueries } from './queries.ts';
import { findReferences } from './reference/find-references.ts';

/** Longest text searched for references, in UTF-16 code units (the unit of the offsets). */
export const MAX_REFERENCE_TEXT = 5000;

/** `text` of /references: required, given once, at most MAX_REFERENCE_TEXT UTF-16 code units. */
export const referenceTextParameter: QueryParameter<'text', string> = {
  name: 'text',
  required: true,
  schema: Type.String({ minLength: 1, maxLength: MAX_REFERENCE_TEXT }),
  example: 'Lisez Jn 3,16 et le Ps 23.',
  description: `Any text, up to ${MAX_REFERENCE_TEXT.toLocaleString('en-US')} characters (UTF-16 code units, as the offsets count; longer: 400 naming text).`,
  read(raw) {
    if (raw !== undefined && typeof raw !== 'string') throw new ApiError(problems.invalidParameter('text', 'text must be given once.'));
    if (raw === undefined || raw.trim() === '')
      throw new ApiError(problems.invalidParameter('text', 'text (the text to find references in) is required.'));
    if (raw.length > MAX_REFERENCE_TEXT) {
      throw new ApiError(problems.invalidParameter('text', `text must be at most ${MAX_REFERENCE_TEXT} characters; got ${raw.length}.`));
    }
    return raw;
  },
};

/**
 * The passages `text` names as readers of `lang` write them, each with its offsets, its
 * normalised reference and the verses it holds in the version; a reference to a chapter or verse
 * the version lacks is no reference (left out).
 *
 * @example findReferencesIn(queries, 'fr', 'Lisez Jn 3,16 et Ps 23.').references.map((r) => r.reference) // ['Jean 3.16', 'Psaumes 23']
 */
export function findReferencesIn(queries: BibleQueries, lang: Lang, text: string): FoundReferenceListResponse {
  const version = queries.version(lang);
  if (!version) throw new Error(`Bible database lacks the version for ${lang}`);
  const references: FoundReferenceListResponse['references'] = [];
  for (const { reference, start, end } of findReferences(text, lang)) {
    let bounds: ReturnType<typeof resolvePassage>;
    try {
      bounds = resolvePassage(queries, lang, reference);
    } catch (error) {
      if (error instanceof ApiError) continue;
      throw error;
    }
    references.push({
      start,
      end,
      text: text.slice(start, end),
      reference: passageLabel(lang, reference, bounds.from, bounds.to),
      book: bookRef(reference.book, lang),
      from: bounds.from,
      to: bounds.to,
    });
  }
  return { lang, version: version.code, references };
}
