// Made-up version manifest entries: for tests of the manifest and of source verification, and for builds of the synthetic versions.
import { createHash } from 'node:crypto';
import type { Lang } from '../../build/contract/books.ts';
import type { VersionManifestEntry } from '../../build/version-manifest.ts';
import { syntheticInfo } from './synthetic-model.ts';

/** A French USFM entry named `file`; `sha256` is what the source file must hash to. */
export function fakeManifestEntry(file: string, sha256 = 'a'.repeat(64)): VersionManifestEntry {
  return {
    lang: 'fr',
    code: 'TEST',
    name: 'Test version',
    languageName: 'Français',
    year: 2000,
    licence: 'Public domain',
    attribution: 'Test',
    format: 'usfm',
    file,
    upstream: 'https://example.invalid/test',
    revision: '0'.repeat(40),
    url: `https://example.invalid/${file}`,
    sha256,
  };
}

/** The entry of the synthetic version of `lang` (synthetic-model.ts) whose source is `file`, holding `bytes`. */
export function syntheticManifestEntry(lang: Lang, file: string, bytes: Buffer): VersionManifestEntry {
  return {
    ...syntheticInfo(lang),
    format: 'usfm',
    file,
    upstream: 'https://example.invalid',
    revision: '0',
    url: 'https://example.invalid',
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
