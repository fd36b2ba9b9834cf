// The one intermediate model of a Bible version: every reader produces it, every writer consumes it.

/** USFM book code of one of the 66 canonical books ("GEN" … "REV"). */
export type BookCode = string;

/** One verse of plain scripture text, with optional side fields kept out of `text`. */
export interface Verse {
  /** Verse number within its chapter, from 1. */
  number: number;
  /** Plain text: no markup, notes, cross-references, Strong's numbers or headings. */
  text: string;
  /** Section heading(s) that stand immediately before this verse, joined by " / ". */
  heading?: string;
  /** Footnotes attached to this verse, as plain text. */
  notes?: string[];
  /**
   * When the source joins several verses into one (USFM `\v 1-2`, or an empty SWORD
   * entry whose text sits in the previous verse), the last verse number it covers.
   */
  through?: number;
}

export interface Chapter {
  number: number;
  verses: Verse[];
}

export interface Book {
  code: BookCode;
  chapters: Chapter[];
}

/** Something a reader met but did not turn into text: unknown markup, an odd marker. */
export interface SourceIssue {
  kind: 'unknown-markup' | 'missing-verse' | 'merged-verse' | 'extra-verse' | 'parse-error';
  /** Where it was seen: "JHN 3:16", or a file with line and column. */
  where: string;
  detail: string;
}

/** What a reader returns for one source: the books it read, in canonical order, and what it noticed. */
export interface VersionText {
  /** Version code from the manifest (LSG, KJV, RVR, BLIVRE, STV). */
  code: string;
  books: Book[];
  issues: SourceIssue[];
}
