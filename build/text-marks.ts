// Layout marks inside a verse being read (paragraph starts, poetry lines, words of Jesus) and their offsets in the plain text.
import type { PoetryLine, Span } from './contract/response-schemas.ts';
import type { Verse } from './contract/verse.ts';

/**
 * Readers drop these private-use characters into the raw text where a mark stands; after the
 * text is collapsed, `takeMarks` removes them and turns them into offsets. The sources never
 * use the private-use area, so a mark cannot be confused with text.
 */
export const MARK = {
  paragraph: '\ue000',
  /** A poetry line at indent 1 to 4: MARK.line(1). */
  line: (indent: number): string => String.fromCharCode(0xe000 + Math.min(4, Math.max(1, indent))),
  jesusStart: '\ue010',
  jesusEnd: '\ue011',
} as const;

/** The layout fields of a verse, as takeMarks finds them. */
export type VerseLayout = Pick<Verse, 'paragraphs' | 'poetry' | 'wordsOfJesus'>;

const ANY_MARK = /[\ue000-\ue011]/;
const SPACE = 0x20;
const PARAGRAPH = MARK.paragraph.charCodeAt(0);
const JESUS_START = MARK.jesusStart.charCodeAt(0);

/**
 * Removes the marks from a collapsed text (single spaces, trimmed) and returns the text
 * exactly as it would be without them, with the offsets of each mark in it. A mark that
 * falls on a space points at the word after it; spans never start or end on a space.
 *
 * @example takeMarks('\ue000In the beginning') // { text: 'In the beginning', layout: { paragraphs: [0] } }
 */
export function takeMarks(marked: string): { text: string; layout: VerseLayout } {
  if (!ANY_MARK.test(marked)) return { text: marked, layout: {} };
  let text = '';
  const paragraphs: number[] = [];
  const poetry: PoetryLine[] = [];
  const spans: Span[] = [];
  let open: number | undefined;
  // The text between marks is appended a run at a time (a string per character cost the tree thread's
  // reading of a version more than the rest of this function), with the same spaces dropped.
  const append = (run: string): void => {
    let from = 0;
    while (from < run.length && run.charCodeAt(from) === SPACE && (text === '' || text.endsWith(' '))) from++;
    if (from === run.length) return;
    if (run.indexOf('  ', from) === -1) {
      text += from === 0 ? run : run.slice(from);
      return;
    }
    for (let at = from; at < run.length; at++) {
      if (run.charCodeAt(at) === SPACE && (text === '' || text.endsWith(' '))) continue;
      text += run[at];
    }
  };
  let runStart = 0;
  for (let index = 0; index < marked.length; index++) {
    const code = marked.charCodeAt(index);
    if (code < 0xe000 || code > 0xe011) continue;
    if (index > runStart) append(marked.slice(runStart, index));
    runStart = index + 1;
    const at = text.length;
    if (code === PARAGRAPH) paragraphs.push(at);
    else if (code <= 0xe004) poetry.push({ at, indent: code - 0xe000 });
    else if (code === JESUS_START) open ??= at;
    else if (open !== undefined) {
      // A span closed and reopened around a note or a line break is one span.
      const last = spans.at(-1);
      if (last !== undefined && open <= last.end + 1) last.end = at;
      else spans.push({ start: open, end: at });
      open = undefined;
    }
  }
  if (marked.length > runStart) append(marked.slice(runStart));
  if (open !== undefined) spans.push({ start: open, end: text.length });
  text = text.trimEnd();
  return { text, layout: layoutAt(text, paragraphs, poetry, spans) };
}

/**
 * The layout fields from the marks' offsets in the final text: a mark on a space moves to the word
 * after it, and what falls past the text's end is dropped. Plain loops over `charCodeAt`: the text
 * reaches here as a flat, sliced or concatenated string, one- or two-byte, and indexing it (`text[at]`)
 * in chains of map, filter and Set had V8 throw this function's optimised code away and compile it
 * again each time it met another of those string kinds (eight times in a build).
 */
function layoutAt(text: string, paragraphs: readonly number[], poetry: readonly PoetryLine[], spans: readonly Span[]): VerseLayout {
  const length = text.length;
  const clamp = (at: number): number => Math.min(text.charCodeAt(at) === SPACE ? at + 1 : at, length);
  const layout: VerseLayout = {};
  const starts: number[] = [];
  for (const mark of paragraphs) {
    const at = clamp(mark);
    if ((at < length || at === 0) && !starts.includes(at)) starts.push(at);
  }
  if (starts.length > 0) layout.paragraphs = starts;
  const lines: PoetryLine[] = [];
  for (const line of poetry) {
    const at = clamp(line.at);
    if (at < length) lines.push({ at, indent: line.indent });
  }
  if (lines.length > 0) layout.poetry = lines;
  const words: Span[] = [];
  for (const span of spans) {
    const start = clamp(span.start);
    const end = Math.min(length, text.charCodeAt(span.end - 1) === SPACE ? span.end - 1 : span.end);
    if (end > start) words.push({ start, end });
  }
  if (words.length > 0) layout.wordsOfJesus = words;
  return layout;
}
