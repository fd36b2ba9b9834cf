// A made-up version manifest entry for tests of the manifest and of source verification.
import type { VersionManifestEntry } from '../../build/version-manifest.ts';

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
