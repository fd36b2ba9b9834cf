// The build stamp: what the build writes is what parseBuildStamp accepts, and anything else is refused with the reason.
import { describe, expect, it } from 'vitest';
import { BIBLE_SCHEMA_VERSION } from '../../../build/contract/layout.ts';
import { buildStamp, parseBuildStamp } from '../../../build/contract/stamp.ts';

const download = { url: '/api/v1/bible/download?lang=en', bytes: 5_700_000, sha256: 'a'.repeat(64) };
const stamp = buildStamp('b783bf', [{ lang: 'en', code: 'KJV', books: 66, chapters: 1189, verses: 31102, download, versionHash: '5e0c' }]);

describe('the build stamp', () => {
  it('reads back what the build writes', () => {
    expect(parseBuildStamp(JSON.stringify(stamp))).toEqual(stamp);
  });

  it('refuses text that is not JSON, another schema version and a stamp of another shape, saying why', () => {
    expect(() => parseBuildStamp('{')).toThrow('is not valid JSON');
    expect(() => parseBuildStamp(JSON.stringify({ ...stamp, schemaVersion: 999 }))).toThrow(
      `has schema version 999; this code reads version ${BIBLE_SCHEMA_VERSION}`,
    );
    expect(() => parseBuildStamp('[]')).toThrow('has schema version undefined');
    expect(() => parseBuildStamp(JSON.stringify({ ...stamp, buildHash: '' }))).toThrow('buildHash: must not be empty');
    const badCounts = { ...stamp, versions: [{ ...stamp.versions[0], lang: 'de' }] };
    expect(() => parseBuildStamp(JSON.stringify(badCounts))).toThrow('versions[0].lang: must be one of fr, en, es, pt, nl, got "de"');
    const badDownload = { ...stamp, versions: [{ ...stamp.versions[0], download: { ...download, sha256: 'A'.repeat(64) } }] };
    expect(() => parseBuildStamp(JSON.stringify(badDownload))).toThrow('versions[0].download.sha256');
  });
});
