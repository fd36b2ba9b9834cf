// Types shared by the Bible writers: output files, and the version metadata they publish.
import type { Lang } from '../books.ts';
import type { VersionText } from '../model.ts';

/** One file of generated output, relative to the folder it is written into (no leading slash). */
export interface OutputFile {
  path: string;
  content: string | Uint8Array;
}

/**
 * The published metadata of one version, as held by the sources manifest
 * (data/bible-versions.json); any manifest entry with these fields fits.
 */
export interface VersionInfo {
  lang: Lang;
  code: string;
  name: string;
  languageName: string;
  year: number;
  licence: string;
  attribution: string;
}

/** One version ready to be written: its manifest metadata and the text a reader produced. */
export interface BuiltVersion {
  info: VersionInfo;
  text: VersionText;
}
