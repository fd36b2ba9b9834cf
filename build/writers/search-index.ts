// MiniSearch index per language, serialised with what a client needs to load it.
import MiniSearch from 'minisearch';
import type { Lang } from '../contract/books.ts';
import { BIBLE_SCHEMA_VERSION, staticPaths } from '../contract/layout.ts';
import type { VersionText } from '../model.ts';
import { SearchIndexBuilder } from './search-index-builder.ts';
import { type SearchDocument, searchOptions } from './search-options.ts';
import { canonicalBooks } from './static-tree.ts';
import type { BuiltVersion, OutputFile, VersionInfo } from './types.ts';

// The options and term processing are shared with every loader; importers of this file find them here too.
export { normalizeTerm, type SearchDocument, searchOptions } from './search-options.ts';

/** The file written to bible-search/{lang}.json. */
export interface SearchIndexFile {
  schemaVersion: number;
  /**
   * SHA-256 over everything this version's files are made from (its source, its manifest entry,
   * the builder and schema versions): build.json lists the same value for the version, and it
   * changes only when this index may have changed.
   */
  versionHash: string;
  lang: Lang;
  version: string;
  /** MiniSearch options to pass to `MiniSearch.loadJSON` (with `processTerm` from `normalizeTerm`). */
  options: { fields: string[]; storeFields: string[]; idField: string; processTerm: 'lowercase-strip-diacritics' };
  /** The output of `JSON.stringify(miniSearch)`; MiniSearch's own serializationVersion is inside. */
  index: unknown;
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

/**
 * One index file per version (language), each whole in memory: for tests and small builds; the
 * build streams each index with `searchIndexChunks`.
 */
export function searchIndexes(versions: readonly BuiltVersion[], versionHash: (info: VersionInfo) => string): OutputFile[] {
  return versions.map((version) => ({
    path: staticPaths.searchIndex(version.info.lang),
    content: Buffer.concat([...searchIndexChunks(version.info, indexedVersion(version.text), versionHash(version.info))]).toString('utf8'),
  }));
}

/** A version's verses indexed: what the build keeps of them for its search index (no verse text). */
export function indexedVersion(text: VersionText): SearchIndexBuilder {
  const index = new SearchIndexBuilder();
  for (const document of searchDocuments(text)) index.add(document);
  return index;
}

/**
 * The UTF-8 bytes of a version's index file, in chunks: the file's own fields, then the MiniSearch
 * index as `JSON.stringify(miniSearch)` writes it.
 *
 * @example writeLargeFile(dir, staticPaths.searchIndex('en'), searchIndexChunks(info, index, versionHash))
 */
export function* searchIndexChunks(
  info: Pick<VersionInfo, 'lang' | 'code'>,
  index: SearchIndexBuilder,
  versionHash: string,
): Generator<Uint8Array> {
  const options = searchOptions();
  const head: Omit<SearchIndexFile, 'index'> & { index: 0 } = {
    schemaVersion: BIBLE_SCHEMA_VERSION,
    versionHash,
    lang: info.lang,
    version: info.code,
    options: {
      fields: options.fields,
      storeFields: options.storeFields ?? [],
      idField: 'id',
      processTerm: 'lowercase-strip-diacritics',
    },
    index: 0,
  };
  // The same object as JSON.stringify would write it whole: the head up to `"index":`, the index, the closing brace.
  const text = JSON.stringify(head);
  if (!text.startsWith(searchIndexHead(versionHash))) throw new Error('the search index file must begin with its version hash');
  yield Buffer.from(text.slice(0, -'0}'.length));
  yield* index.chunks();
  yield Buffer.from('}');
}

/**
 * How an index file of this version hash begins: an incremental build reads these few bytes to
 * know whether the file on disk belongs to the version it would reuse.
 */
export function searchIndexHead(versionHash: string): string {
  return `{"schemaVersion":${BIBLE_SCHEMA_VERSION},"versionHash":${JSON.stringify(versionHash)},`;
}

/** The verses of a version as index documents, in canonical order. */
export function* searchDocuments(text: VersionText): Generator<SearchDocument> {
  for (const { canon, book } of canonicalBooks(text.books)) {
    for (const chapter of book.chapters) {
      for (const verse of chapter.verses) {
        yield {
          id: `${canon.usfm}.${chapter.number}.${verse.number}`,
          usfm: canon.usfm,
          chapter: chapter.number,
          verse: verse.number,
          text: verse.text,
        };
      }
    }
  }
}
