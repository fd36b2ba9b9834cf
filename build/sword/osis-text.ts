// OSIS markup of one SWORD entry → plain verse text, with headings and notes set aside.
import type { SourceIssue } from '../model.ts';

export interface OsisText {
  /** Plain text: words only, whitespace collapsed, no markup, notes or headings. */
  text: string;
  /** Titles that stand before the verse text, joined by " / ". */
  heading?: string;
  /** Footnotes and study notes, as plain text. */
  notes?: string[];
  /** Markup this function did not recognise (its words are kept, the tags dropped). */
  issues: SourceIssue[];
}

/** Elements whose content is verse text; the tags themselves carry only attributes (Strong's, morphology, speaker). */
const INLINE = new Set([
  'w', 'transChange', 'divineName', 'q', 'seg', 'foreign', 'hi', 'inscription', 'abbr', 'name',
  'reference', 'catchWord', 'rdg', 'speaker', 'mentioned', 'date', 'rf', 'sup', 'a', 'index',
]);
/** Elements that separate text (paragraphs, lines, divisions): content kept, a space in their place. */
const BLOCK = new Set(['div', 'p', 'l', 'lg', 'list', 'item', 'chapter', 'verse', 'milestone', 'lb', 'cb', 'br', 'figure', 'table', 'row', 'cell']);

type Sink = 'text' | 'heading' | 'note' | 'drop';

interface Open {
  name: string;
  sink: Sink;
  /** Where this element's collected text starts in its sink buffer. */
  start: number;
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>/]+))*)\s*(\/?)>/g;

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
  const issues: SourceIssue[] = [];
  const buffers: Record<Sink, string[]> = { text: [], heading: [], note: [], drop: [] };
  const headings: string[] = [];
  const notes: string[] = [];
  const stack: Open[] = [];
  const sink = (): Sink => stack[stack.length - 1]?.sink ?? 'text';
  const unknown = (detail: string) => issues.push({ kind: 'unknown-markup', where, detail });
  const textSoFar = () => buffers.text.join('').trim().length > 0;

  let cursor = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(osis); match; match = TAG.exec(osis)) {
    if (match.index > cursor) appendText(osis.slice(cursor, match.index));
    cursor = TAG.lastIndex;
    const [tag, closing, name, attributes, selfClosing] = match;

    if (closing) {
      closeElement(name, tag);
    } else if (selfClosing) {
      emptyElement(name, attributes, tag);
    } else if (name === 'note') {
      stack.push({ name, sink: 'note', start: buffers.note.length });
    } else if (name === 'title') {
      const target: Sink = sink() === 'text' && !textSoFar() ? 'heading' : sink() === 'text' ? 'drop' : sink();
      stack.push({ name, sink: target, start: buffers[target].length });
    } else {
      if (!INLINE.has(name) && !BLOCK.has(name)) unknown(`<${name}> (content kept as text)`);
      if (BLOCK.has(name)) buffers[sink()].push(' ');
      stack.push({ name, sink: sink(), start: buffers[sink()].length });
    }
  }
  if (cursor < osis.length) appendText(osis.slice(cursor));
  for (const open of stack.reverse()) {
    unknown(`<${open.name}> never closed`);
    if (open.sink === 'note' || open.sink === 'heading') finish(open);
  }

  const result: OsisText = { text: collapse(buffers.text.join('')), issues };
  if (headings.length > 0) result.heading = headings.join(' / ');
  if (notes.length > 0) result.notes = notes;
  return result;

  function appendText(raw: string): void {
    if (/[<>]/.test(raw)) {
      unknown(`stray angle bracket in ${JSON.stringify(raw.slice(0, 40))}`);
      raw = raw.replace(/[<>]/g, ' ');
    }
    buffers[sink()].push(decodeEntities(raw, unknown));
  }

  function emptyElement(name: string, attributes: string, tag: string): void {
    // A milestone-style <q marker="“" sID=…/> stands for its quotation mark.
    if (name === 'q') {
      const marker = /\smarker\s*=\s*"([^"]*)"/.exec(attributes)?.[1];
      if (marker) buffers[sink()].push(decodeEntities(marker, unknown));
      return;
    }
    if (!INLINE.has(name) && !BLOCK.has(name) && name !== 'title' && name !== 'note') {
      unknown(`${tag.slice(0, 80)} (dropped)`);
    }
    buffers[sink()].push(' ');
  }

  function closeElement(name: string, tag: string): void {
    const position = stack.map((open) => open.name).lastIndexOf(name);
    if (position < 0) {
      unknown(`${tag} without an opening tag`);
      return;
    }
    while (stack.length > position + 1) unknown(`<${stack.pop()!.name}> closed by ${tag}`);
    const open = stack.pop()!;
    if (open.sink !== sink() || open.name === 'note' || open.name === 'title') finish(open);
    else if (BLOCK.has(name)) buffers[sink()].push(' ');
  }

  /** Moves the text an element collected out of its buffer, into headings or notes. */
  function finish(open: Open): void {
    const collected = collapse(buffers[open.sink].splice(open.start).join(''));
    if (open.sink === 'note' && stack.every((outer) => outer.sink !== 'note')) {
      if (collected) notes.push(collected);
    } else if (open.sink === 'note') {
      buffers.note.push(collected);
    } else if (open.sink === 'heading' && stack.every((outer) => outer.sink !== 'heading')) {
      if (collected) headings.push(collected);
    } else if (open.sink === 'heading') {
      buffers.heading.push(collected);
    }
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(raw: string, unknown: (detail: string) => void): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);/g, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const named = NAMED_ENTITIES[body];
    if (named === undefined) {
      unknown(`unknown entity ${entity} (dropped)`);
      return '';
    }
    // A decoded < or > is text, but our text must never look like markup.
    return named === '<' ? '‹' : named === '>' ? '›' : named;
  });
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
