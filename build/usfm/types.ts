// Public types of the USFM reader: the files it reads and what it makes of each one.
import type { Book, SourceIssue, VersionText } from '../model.ts';

/** One USFM file, already read and decoded: the reader itself does no I/O. */
export interface UsfmFile {
  /** Name as found in the source (used in issue locations), e.g. "FRA[B]LSG1910[PD]UBS-01-GEN.p.sfm". */
  fileName: string;
  text: string;
}

/** What one file turned out to be: a canonical book, or something else (front matter, apocrypha). */
export type ParsedUsfmFile =
  | { type: 'book'; fileName: string; book: Book; issues: SourceIssue[] }
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
