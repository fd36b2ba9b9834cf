// One verse of text, as the build's model holds it and as the published tree and database carry it back.

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
