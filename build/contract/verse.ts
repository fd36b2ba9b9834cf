// One verse of text, as the build's model holds it and as the published tree and database carry it back.

/**
 * One verse of plain scripture text, with optional side fields kept out of `text`. A source that
 * joins verses (USFM `\v 1-2`, an empty SWORD entry) gives the text to the first number; the
 * others are absent, as the build report says.
 */
export interface Verse {
  /** Verse number within its chapter, from 1. */
  number: number;
  /** Plain text: no markup, notes, cross-references, Strong's numbers or headings. */
  text: string;
  /** Section heading(s) that stand immediately before this verse, joined by " / ". */
  heading?: string;
  /** Footnotes attached to this verse, as plain text. */
  notes?: string[];
}
