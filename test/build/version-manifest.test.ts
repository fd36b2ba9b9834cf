// The version manifest: the five pinned versions, checked against its schema with messages that name the entry and field.
import { describe, expect, it } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { loadVersionManifest, parseVersionManifest, VersionManifestError } from '../../build/version-manifest.ts';
import { fakeManifestEntry } from '../helpers/manifest-entry.ts';

describe('the version manifest', () => {
  it('pins the five versions, one per language, with their codes', () => {
    const { versions } = loadVersionManifest();
    expect(versions.map((entry) => entry.lang)).toEqual([...LANGS]);
    expect(versions.map((entry) => entry.code)).toEqual(['LSG', 'KJV', 'RVR', 'BLIVRE', 'STV']);
    expect(versions.find((entry) => entry.code === 'KJV')?.sha256).toBe('873815aa4b4123025616d1f41eae75f412111275f4c3884e36f92d4f46dcba1d');
  });

  it('refuses a file name that would escape the sources directory', () => {
    const entry = { ...fakeManifestEntry('x.zip'), file: '../x.zip' };
    expect(() => parseVersionManifest({ schemaVersion: 1, versions: [entry] })).toThrow(VersionManifestError);
  });

  it('refuses a malformed hash, an unknown language and a duplicate code', () => {
    const good = fakeManifestEntry('x.zip');
    const bad = (entry: object) => () => parseVersionManifest({ schemaVersion: 1, versions: [entry] });
    expect(bad({ ...good, sha256: 'abc' })).toThrow(/sha256/);
    expect(bad({ ...good, lang: 'de' })).toThrow(/lang/);
    expect(() => parseVersionManifest({ schemaVersion: 1, versions: [good, good] })).toThrow(/twice/);
    expect(() => parseVersionManifest({ versions: [] })).toThrow(/schemaVersion/);
  });
});

describe('the version manifest schema', () => {
  it('names the entry and field of a fault, says what it must be, and shows the value', () => {
    const bad = (entry: object) => () =>
      parseVersionManifest({ schemaVersion: 1, versions: [fakeManifestEntry('a.zip'), entry] }, 'm.json');
    expect(bad({ ...fakeManifestEntry('x.zip'), lang: 'de' })).toThrow(
      'm.json: versions[1].lang: must be one of fr, en, es, pt, nl, got "de"',
    );
    expect(bad({ ...fakeManifestEntry('x.zip'), file: '../x.zip' })).toThrow(
      'm.json: versions[1].file: must be a bare file name, got "../x.zip"',
    );
    expect(bad({ ...fakeManifestEntry('x.zip'), format: 'osis' })).toThrow('versions[1].format: must be one of usfm, sword, got "osis"');
    expect(bad({ ...fakeManifestEntry('x.zip'), year: '1910' })).toThrow('versions[1].year: must be a whole number, got "1910"');
    expect(bad({ ...fakeManifestEntry('x.zip'), name: '' })).toThrow('versions[1].name: must not be empty');
  });

  it('refuses a missing field and an unknown one', () => {
    const { url: _url, ...withoutUrl } = fakeManifestEntry('x.zip');
    expect(() => parseVersionManifest({ schemaVersion: 1, versions: [withoutUrl] })).toThrow('versions[0].url: is required');
    expect(() => parseVersionManifest({ schemaVersion: 1, versions: [{ ...fakeManifestEntry('x.zip'), sha1: 'x' }] })).toThrow(
      'versions[0].sha1: is not a known field',
    );
  });

  it('refuses a manifest of another schema version', () => {
    expect(() => parseVersionManifest({ schemaVersion: 2, versions: [] })).toThrow('schemaVersion: must be 1, got 2');
  });
});
