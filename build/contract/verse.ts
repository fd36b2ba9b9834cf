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
  /** Offsets in `text` where a paragraph starts (0 when the verse opens one): USFM `\p`, SWORD `<milestone type="x-p"/>`. */
  paragraphs?: number[];
  /** Poetry lines that start in this verse (USFM `\q1`/`\q2`, SWORD `<l>`): offset in `text` and indent level. */
  poetry?: PoetryLine[];
  /** Words of Jesus (USFM `\wj`, SWORD `<q who="Jesus">`): spans of `text`, offsets in UTF-16 code units, end exclusive. */
  wordsOfJesus?: Span[];
}

/** A poetry line: where it starts in the verse text, and its indent (1 for `\q1`, 2 for `\q2`). */
export interface PoetryLine {
  at: number;
  indent: number;
}

/** A part of the verse text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}
