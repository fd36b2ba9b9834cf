// OSIS markup of one SWORD entry → plain verse text, with headings and notes set aside.
import type { SourceIssue } from '../model.ts';
import { MARK, takeMarks, type VerseLayout } from '../text-marks.ts';

export interface OsisText {
  /** Plain text: words only, whitespace collapsed, no markup, notes or headings. */
  text: string;
  /** Titles that stand before the verse text, joined by " / ". */
  heading?: string;
  /** Footnotes and study notes, as plain text. */
  notes?: string[];
  /** Paragraph starts, poetry lines and words of Jesus, as offsets in `text` (fields only when present). */
  layout: VerseLayout;
  /** Markup this function did not recognise (its words are kept, the tags dropped). */
  issues: SourceIssue[];
}

/** Elements whose content is verse text; the tags themselves carry only attributes (Strong's, morphology, speaker). */
const INLINE = new Set([
  'w',
  'transChange',
  'divineName',
  'q',
  'seg',
  'foreign',
  'hi',
  'inscription',
  'abbr',
  'name',
  'reference',
  'catchWord',
  'rdg',
  'speaker',
  'mentioned',
  'date',
  'rf',
  'sup',
  'a',
  'index',
]);
/** Elements that separate text (paragraphs, lines, divisions): content kept, a space in their place. */
const BLOCK = new Set([
  'div',
  'p',
  'l',
  'lg',
  'list',
  'item',
  'chapter',
  'verse',
  'milestone',
  'lb',
  'cb',
  'br',
  'figure',
  'table',
  'row',
  'cell',
]);

type Sink = 'text' | 'heading' | 'note' | 'drop';

interface Open {
  name: string;
  sink: Sink;
  /** Where this element's collected text starts in its sink. */
  start: number;
  /** A `<q who="Jesus">` container: its end closes a words-of-Jesus span. */
  jesus?: boolean;
}

/** The state of one conversion; module-level functions work on it so that nothing is allocated per tag but the stack entries. */
interface Conversion {
  where: string;
  sinks: Record<Sink, string>;
  stack: Open[];
  headings: string[];
  notes: string[];
  issues: SourceIssue[];
  /** Inside a `<q who="Jesus" sID=…/>` … `<q eID=…/>` pair. */
  jesusMilestone: boolean;
}

// Attributes are matched loosely (anything but angle brackets): OSIS attribute values hold no markup.
const TAG = /<(\/?)([A-Za-z][\w:.-]*)([^<>]*)>/g;

/**
 * Turns the OSIS of one entry into plain text.
 *
 * Canonical psalm titles (`<title canonical="true" type="psalm">A Psalm of David…</title>`,
 * and Psalm 119's acrostic letters) become `heading`, not text: the KJV-family
 * versifications our modules use number them as no verse, every printed edition sets
 * them above verse 1, and putting them into verse 1 would make "Ps 3:1" read differently
 * from every other source of the same verse. They stay in the model as the heading of verse 1.
 * Titles after the verse text (a "New Testament" heading that closes Malachi 4:6) belong
 * to what follows and are dropped.
 *
 * @example osisToText('<w lemma="strong:H0430">God</w> said<note>Heb. …</note>.').text // 'God said.'
 */
export function osisToText(osis: string, where = ''): OsisText {
  const state: Conversion = {
    where,
    sinks: { text: '', heading: '', note: '', drop: '' },
    stack: [],
    headings: [],
    notes: [],
    issues: [],
    jesusMilestone: false,
  };
  const { stack, sinks } = state;
  let cursor = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(osis); match; match = TAG.exec(osis)) {
    if (match.index > cursor) appendText(state, osis.slice(cursor, match.index));
    cursor = TAG.lastIndex;
    const [tag, closing, name, rest] = match;
    const selfClosing = rest.endsWith('/');
    const sink = currentSink(state);

    if (closing) {
      closeElement(state, name, tag);
    } else if (selfClosing) {
      emptyElement(state, name, rest.slice(0, -1), tag);
    } else if (name === 'note') {
      stack.push({ name, sink: 'note', start: sinks.note.length });
    } else if (name === 'title') {
      const target: Sink = sink !== 'text' ? sink : sinks.text.trim() === '' ? 'heading' : 'drop';
      stack.push({ name, sink: target, start: sinks[target].length });
    } else {
      const block = BLOCK.has(name);
      if (!block && !INLINE.has(name)) unknown(state, `<${name}> (content kept as text)`);
      if (block) sinks[sink] += ' ';
      if (sink === 'text') sinks.text += openingMark(name, rest);
      const jesus = name === 'q' && WHO_JESUS.test(rest);
      if (jesus && sink === 'text') sinks.text += MARK.jesusStart;
      stack.push(jesus ? { name, sink, start: sinks[sink].length, jesus } : { name, sink, start: sinks[sink].length });
    }
  }
  if (cursor < osis.length) appendText(state, osis.slice(cursor));
  while (stack.length > 0) {
    const open = stack.pop()!;
    unknown(state, `<${open.name}> never closed`);
    finish(state, open);
  }

  const { text, layout } = takeMarks(collapse(sinks.text));
  const result: OsisText = { text, layout, issues: state.issues };
  if (state.headings.length > 0) result.heading = state.headings.join(' / ');
  if (state.notes.length > 0) result.notes = state.notes;
  return result;
}

const WHO_JESUS = /\swho\s*=\s*"Jesus"/;

/** The layout mark an opening (or empty) element stands for: a paragraph or a poetry line; '' for others. */
function openingMark(name: string, attributes: string): string {
  if (name === 'p' || (name === 'milestone' && /\stype\s*=\s*"x-p"/.test(attributes))) return MARK.paragraph;
  if (name === 'l' && !/\seID\s*=/.test(attributes)) return MARK.line(Number(/\slevel\s*=\s*"(\d)"/.exec(attributes)?.[1] ?? 1));
  return '';
}

function currentSink(state: Conversion): Sink {
  const stack = state.stack;
  return stack.length === 0 ? 'text' : stack[stack.length - 1].sink;
}

function unknown(state: Conversion, detail: string): void {
  state.issues.push({ kind: 'unknown-markup', where: state.where, detail });
}

function appendText(state: Conversion, raw: string): void {
  if (raw.includes('<') || raw.includes('>')) {
    unknown(state, `stray angle bracket in ${JSON.stringify(raw.slice(0, 40))}`);
    raw = raw.replace(/[<>]/g, ' ');
  }
  state.sinks[currentSink(state)] += raw.includes('&') ? decodeEntities(state, raw) : raw;
}

function emptyElement(state: Conversion, name: string, attributes: string, tag: string): void {
  const sink = currentSink(state);
  // A milestone-style <q marker="“" sID=…/> stands for its quotation mark.
  if (name === 'q') {
    const marker = /\smarker\s*=\s*"([^"]*)"/.exec(attributes)?.[1];
    const jesusEnd = sink === 'text' && state.jesusMilestone && /\seID\s*=/.test(attributes);
    if (jesusEnd) {
      state.sinks.text += MARK.jesusEnd;
      state.jesusMilestone = false;
    }
    if (marker) state.sinks[sink] += decodeEntities(state, marker);
    if (sink === 'text' && WHO_JESUS.test(attributes) && /\ssID\s*=/.test(attributes)) {
      state.sinks.text += MARK.jesusStart;
      state.jesusMilestone = true;
    }
    return;
  }
  if (!INLINE.has(name) && !BLOCK.has(name) && name !== 'title' && name !== 'note') {
    unknown(state, `${tag.slice(0, 80)} (dropped)`);
  }
  if (sink === 'text') state.sinks.text += openingMark(name, attributes);
  // An empty inline element (a Strong's-only <w .../>) stands for no text, so it must not split "thirst ;" as SWORD never does.
  if (!INLINE.has(name)) state.sinks[sink] += ' ';
}

function closeElement(state: Conversion, name: string, tag: string): void {
  const stack = state.stack;
  let position = stack.length - 1;
  while (position >= 0 && stack[position].name !== name) position--;
  if (position < 0) {
    unknown(state, `${tag} without an opening tag`);
    return;
  }
  while (stack.length > position + 1) {
    const inner = stack.pop()!;
    unknown(state, `<${inner.name}> closed by ${tag}`);
    finish(state, inner);
  }
  const open = stack.pop()!;
  if (open.jesus && open.sink === 'text') state.sinks.text += MARK.jesusEnd;
  // SWORD's plain renderer prints a divine name in capitals ("The LORD said unto my Lord", Ps 110:1).
  if (name === 'divineName') upperCaseSince(state, open);
  if (open.name === 'note' || open.name === 'title' || open.sink !== currentSink(state)) finish(state, open);
  else if (BLOCK.has(name)) state.sinks[open.sink] += ' ';
}

function upperCaseSince(state: Conversion, open: Open): void {
  const { sinks } = state;
  sinks[open.sink] = sinks[open.sink].slice(0, open.start) + sinks[open.sink].slice(open.start).toUpperCase();
}

/** Moves the text a note or title collected out of its sink, into the notes or headings (or into the outer note or title). */
function finish(state: Conversion, open: Open): void {
  if (open.sink === currentSink(state)) return;
  const { sinks } = state;
  const collected = collapse(sinks[open.sink].slice(open.start));
  sinks[open.sink] = sinks[open.sink].slice(0, open.start);
  const nested = state.stack.some((outer) => outer.sink === open.sink);
  if (nested) sinks[open.sink] += ` ${collected} `;
  else if (open.sink === 'note' && collected) state.notes.push(collected);
  else if (open.sink === 'heading' && collected) state.headings.push(collected);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(state: Conversion, raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const named = NAMED_ENTITIES[body];
    if (named === undefined) {
      unknown(state, `unknown entity ${entity} (dropped)`);
      return '';
    }
    // A decoded < or > is text, but our text must never look like markup.
    return named === '<' ? '‹' : named === '>' ? '›' : named;
  });
}

function collapse(text: string): string {
  // Most verses need only the trim; the regex replace is the costly part of a whole-Bible read.
  return /\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim();
}
