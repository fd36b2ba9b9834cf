// MiniSearch index per language, serialised with what a client needs to load it.
import MiniSearch, { type Options } from 'minisearch';
import type { Lang } from '../contract/books.ts';
import { BIBLE_SCHEMA_VERSION, staticPaths } from '../contract/layout.ts';
import type { VersionText } from '../model.ts';
import { canonicalBooks } from './static-tree.ts';
import type { BuiltVersion, OutputFile, VersionInfo } from './types.ts';

/** One indexed verse. */
export interface SearchDocument {
  id: string;
  usfm: string;
  chapter: number;
  verse: number;
  text: string;
}

/** The file written to bible-search/{lang}.json. */
export interface SearchIndexFile {
  schemaVersion: number;
  buildHash: string;
  lang: Lang;
  version: string;
  /** MiniSearch options to pass to `MiniSearch.loadJSON` (with `processTerm` from `normalizeTerm`). */
  options: { fields: string[]; storeFields: string[]; idField: string; processTerm: 'lowercase-strip-diacritics' };
  /** The output of `JSON.stringify(miniSearch)`; MiniSearch's own serializationVersion is inside. */
  index: unknown;
}

/** Lower-cases and strips accents (NFD, then drop combining marks): "Éternel" → "eternel". */
export function normalizeTerm(term: string): string {
  const lower = term.toLowerCase();
  // Most terms are plain ASCII: skip the costly normalisation for them (a third of index time).
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(COMBINING_MARKS, '') : lower;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range spans all of ASCII on purpose (fast path for ASCII-only terms)
const NON_ASCII = /[^\u0000-\u007f]/;
const COMBINING_MARKS = /\p{M}+/gu;

/** MiniSearch options shared by the writer and every loader. */
export function searchOptions(): Options<SearchDocument> {
  return {
    fields: ['text'],
    storeFields: ['usfm', 'chapter', 'verse'],
    idField: 'id',
    processTerm: (term) => normalizeTerm(term) || null,
  };
}

/**
 * Loads a serialised index file into a MiniSearch ready to query.
 *
 * @example loadSearchIndex(JSON.parse(text)).search('eternel')
 */
export function loadSearchIndex(file: SearchIndexFile): MiniSearch<SearchDocument> {
  if (file.schemaVersion !== BIBLE_SCHEMA_VERSION) {
    throw new Error(`search index has schema version ${file.schemaVersion}, expected ${BIBLE_SCHEMA_VERSION}`);
  }
  return MiniSearch.loadJSON<SearchDocument>(JSON.stringify(file.index), searchOptions());
}

/** One index file per version (language). */
export function searchIndexes(versions: readonly BuiltVersion[], buildHash: string): OutputFile[] {
  return versions.map((version) => ({
    path: staticPaths.searchIndex(version.info.lang),
    content: JSON.stringify(searchIndexFile(version, buildHash)),
  }));
}

/**
 * The index file of one version.
 *
 * @example JSON.stringify(searchIndexFile(version, buildHash))
 */
export function searchIndexFile({ info, text }: BuiltVersion, buildHash: string): SearchIndexFile {
  return searchIndexFileOf(info, searchDocuments(text), buildHash);
}

/** The verses of a version as index documents (what the search-index worker is sent: no side fields). */
export function searchDocuments(text: VersionText): SearchDocument[] {
  const documents: SearchDocument[] = [];
  for (const { canon, book } of canonicalBooks(text.books)) {
    for (const chapter of book.chapters) {
      for (const verse of chapter.verses) {
        documents.push({
          id: `${canon.usfm}.${chapter.number}.${verse.number}`,
          usfm: canon.usfm,
          chapter: chapter.number,
          verse: verse.number,
          text: verse.text,
        });
      }
    }
  }
  return documents;
}

/** The index file over `documents`. */
export function searchIndexFileOf(
  info: Pick<VersionInfo, 'lang' | 'code'>,
  documents: readonly SearchDocument[],
  buildHash: string,
): SearchIndexFile {
  const miniSearch = new MiniSearch<SearchDocument>(searchOptions());
  miniSearch.addAll(documents);
  const options = searchOptions();
  return {
    schemaVersion: BIBLE_SCHEMA_VERSION,
    buildHash,
    lang: info.lang,
    version: info.code,
    options: {
      fields: options.fields,
      storeFields: options.storeFields ?? [],
      idField: 'id',
      processTerm: 'lowercase-strip-diacritics',
    },
    index: miniSearch.toJSON(),
  };
}
