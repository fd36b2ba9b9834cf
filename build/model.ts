// The one intermediate model of a Bible version: every reader produces it, every writer consumes it.
// A verse is defined with the published format (build/contract/), since the service reads verses back.
import type { Verse } from './contract/verse.ts';

export type { Verse };

/** USFM book code of one of the 66 canonical books ("GEN" … "REV"). */
export type BookCode = string;

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
  /**
   * Set when the issue only compares the version's verse numbering with another versification
   * (this one, "KJV"): each version keeps its own numbering, so such a difference is expected, not a fault.
   */
  comparedWith?: string;
}

/** What a reader returns for one source: the books it read, in canonical order, and what it noticed. */
export interface VersionText {
  /** Version code from the manifest (LSG, KJV, RVR, BLIVRE, STV). */
  code: string;
  books: Book[];
  issues: SourceIssue[];
}
