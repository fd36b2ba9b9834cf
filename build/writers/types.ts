// Types shared by the Bible writers: output files, and the version metadata they publish.
import type { VersionText } from '../model.ts';
import type { VersionManifestEntry } from '../version-manifest.ts';

/** One file of generated output, relative to the folder it is written into (no leading slash). */
export interface OutputFile {
  path: string;
  content: string | Uint8Array;
}

/**
 * The published metadata of one version, as held by the sources manifest
 * (data/bible-versions.json); any manifest entry with these fields fits.
 */
export type VersionInfo = Pick<VersionManifestEntry, 'lang' | 'code' | 'name' | 'languageName' | 'year' | 'licence' | 'attribution'>;

/** One version ready to be written: its manifest metadata and the text a reader produced. */
export interface BuiltVersion {
  info: VersionInfo;
  text: VersionText;
}
