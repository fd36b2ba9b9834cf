// USFM text → a flat list of tokens (opening markers, closing markers, text), each with its line and column.

/** An opening marker: `\q1`, `\wj`, or a nested character marker `\+nd`. */
export interface MarkerToken {
  type: 'marker';
  /** Marker name without backslash, plus sign or star ("q1", "wj"). */
  name: string;
  /** Written as `\+name`: a character style nested inside another. */
  nested: boolean;
  line: number;
  column: number;
}

/** A closing marker: `\wj*`, `\+nd*`, `\x*`. */
export interface EndMarkerToken {
  type: 'end';
  name: string;
  nested: boolean;
  line: number;
  column: number;
}

/** Text between markers, exactly as written (the single space that ends an opening marker is not part of it). */
export interface TextToken {
  type: 'text';
  text: string;
  line: number;
  column: number;
}

/** A backslash not followed by a marker name: kept out of the text and reported by the parser. */
export interface StrayBackslashToken {
  type: 'stray';
  line: number;
  column: number;
}

export type UsfmToken = MarkerToken | EndMarkerToken | TextToken | StrayBackslashToken;

/**
 * Splits USFM source into tokens. Lines and columns count from 1; columns count UTF-16 units.
 *
 * @example
 * tokenizeUsfm('\\v 1 Au \\nd commencement\\nd*')
 * // [{type:'marker',name:'v',…}, {type:'text',text:'1 Au ',…}, {type:'marker',name:'nd',…},
 * //  {type:'text',text:'commencement',…}, {type:'end',name:'nd',…}]
 */
export function tokenizeUsfm(source: string): UsfmToken[] {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const tokens: UsfmToken[] = [];
  const position = new PositionTracker(text);
  let index = 0;
  while (index < text.length) {
    const backslash = text.indexOf('\\', index);
    const textEnd = backslash === -1 ? text.length : backslash;
    if (textEnd > index) {
      const { line, column } = position.at(index);
      tokens.push({ type: 'text', text: text.slice(index, textEnd), line, column });
    }
    if (backslash === -1) break;
    const { line, column } = position.at(backslash);
    let cursor = backslash + 1;
    const nested = text[cursor] === '+';
    if (nested) cursor += 1;
    const nameStart = cursor;
    while (cursor < text.length && isMarkerNameChar(text.charCodeAt(cursor))) cursor += 1;
    if (cursor === nameStart && text[cursor] === '*') {
      // `\*` closes a milestone such as `\qt-s |who="Pilate"\*`.
      tokens.push({ type: 'end', name: '', nested, line, column });
      index = cursor + 1;
      continue;
    }
    if (cursor === nameStart) {
      tokens.push({ type: 'stray', line, column });
      index = backslash + 1;
      continue;
    }
    const name = text.slice(nameStart, cursor);
    if (text[cursor] === '*') {
      tokens.push({ type: 'end', name, nested, line, column });
      index = cursor + 1;
      continue;
    }
    tokens.push({ type: 'marker', name, nested, line, column });
    // One whitespace character (or a CRLF pair) ends an opening marker and belongs to it.
    if (text[cursor] === '\r' && text[cursor + 1] === '\n') cursor += 2;
    else if (cursor < text.length && isWhitespace(text.charCodeAt(cursor))) cursor += 1;
    index = cursor;
  }
  return tokens;
}

function isMarkerNameChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Turns offsets into line and column, moving forward only (tokens are produced in order). */
class PositionTracker {
  private offset = 0;
  private line = 1;
  private lineStart = 0;

  constructor(private readonly text: string) {}

  at(target: number): { line: number; column: number } {
    let newline = this.text.indexOf('\n', this.offset);
    while (newline !== -1 && newline < target) {
      this.line += 1;
      this.lineStart = newline + 1;
      newline = this.text.indexOf('\n', newline + 1);
    }
    this.offset = Math.max(this.offset, target);
    return { line: this.line, column: target - this.lineStart + 1 };
  }
}
