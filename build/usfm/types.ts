// Public types of the USFM reader: the files it reads and what it makes of each one.
import type { Book, SourceIssue, VersionText } from '../model.ts';

/** One USFM file, already read and decoded: the reader itself does no I/O. */
export interface UsfmFile {
  /** Name as found in the source (used in issue locations), e.g. "FRA[B]LSG1910[PD]UBS-01-GEN.p.sfm". */
  fileName: string;
  text: string;
}

/**
 * Verses a source joins into one (`\v 1-2`): the model gives the text to `verse`, and the
 * comparison with a versification counts the numbers up to `through` as present.
 */
export interface JoinedVerse {
  chapter: number;
  verse: number;
  through: number;
}

/** What one file turned out to be: a canonical book, or something else (front matter, apocrypha). */
export type ParsedUsfmFile =
  | { type: 'book'; fileName: string; book: Book; joinedVerses: JoinedVerse[]; issues: SourceIssue[] }
  | { type: 'other'; fileName: string /** The `\id` code, or "" when the file has none. */; idCode: string; issues: SourceIssue[] };

/** A file the reader left out on purpose, and why. */
export interface IgnoredUsfmFile {
  fileName: string;
  idCode: string;
  reason: string;
}

/** A version read from USFM: the model's VersionText, plus the files that were not canonical books. */
export interface UsfmVersionText extends VersionText {
  ignoredFiles: IgnoredUsfmFile[];
}
