// The serialised MiniSearch index loads back and searches without regard to case or accents.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { BIBLE_SCHEMA_VERSION } from '../../../build/contract/layout.ts';
import { loadSearchIndex, normalizeTerm, type SearchIndexFile, searchIndexes, searchOptions } from '../../../build/writers/search-index.ts';
import type { VersionInfo } from '../../../build/writers/types.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

describe('search index writer', () => {
  const versionHash = (info: VersionInfo) => `hash-${info.code}`;
  const files = searchIndexes(syntheticVersions(), versionHash);

  it('writes one index per language', () => {
    expect(files.map((file) => file.path)).toEqual([
      'bible-search/fr.json',
      'bible-search/en.json',
      'bible-search/es.json',
      'bible-search/pt.json',
      'bible-search/nl.json',
    ]);
  });

  it('loads with MiniSearch.loadJSON and finds "eternel" for "Éternel"', () => {
    const file = JSON.parse(String(files[0].content)) as SearchIndexFile;
    expect(file).toMatchObject({ schemaVersion: BIBLE_SCHEMA_VERSION, versionHash: 'hash-LSG', lang: 'fr', version: 'LSG' });
    const index = MiniSearch.loadJSON(JSON.stringify(file.index), searchOptions());
    const results = index.search('eternel');
    expect(results.map((result) => result.id)).toEqual(['GEN.1.1']);
    expect(results[0]).toMatchObject({ usfm: 'GEN', chapter: 1, verse: 1 });
    expect(loadSearchIndex(file).search('ÉTERNEL')[0]?.id).toBe('GEN.1.1');
  });

  it('strips accents and case from terms', () => {
    expect(normalizeTerm('Éternel')).toBe('eternel');
    expect(normalizeTerm('CRIÓ')).toBe('crio');
  });

  it('is deterministic across builds', () => {
    expect(searchIndexes(syntheticVersions(), versionHash)).toEqual(files);
  });
});
