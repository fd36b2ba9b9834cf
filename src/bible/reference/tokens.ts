// Splits a Bible reference ("1 Cor 13:4-7; Ps 23") into numbers, words and punctuation, with their positions.
import { ReferenceSyntaxError } from './reference-syntax-error.ts';

export type TokenKind = 'number' | 'word' | 'verse-separator' | 'dash' | 'semicolon' | 'comma';

export interface Token {
  kind: TokenKind;
  /** The token as written. */
  text: string;
  /** 0-based index of its first character in the text. */
  offset: number;
  /** True when a space (or nothing at all, at the start) stands before it; "1Co" is 1 and "Co" without a space. */
  spaced: boolean;
}

/**
 * The tokens of `text`. A dot right after a word is an abbreviation's dot ("Gen.") and is
 * dropped; any other dot, and a colon, separates chapter from verse. Letters with their
 * accents and apostrophes make words; dashes of every width make ranges.
 * Throws ReferenceSyntaxError on any other character.
 *
 * @example tokenize('Jn 3.16').map((t) => t.kind) // ['word', 'number', 'verse-separator', 'number']
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let spaced = true;
  while (index < text.length) {
    const rest = text.slice(index);
    const space = /^\s+/u.exec(rest);
    if (space) {
      index += space[0].length;
      spaced = true;
      continue;
    }
    const match = TOKEN_PATTERNS.map(([kind, pattern]) => ({ kind, found: pattern.exec(rest) })).find(({ found }) => found !== null);
    if (!match?.found) throw new ReferenceSyntaxError(index, [...rest][0] ?? '', 'expected a book, a number or one of : . - ; ,');
    const previous = tokens[tokens.length - 1];
    const abbreviationDot = match.found[0] === '.' && previous?.kind === 'word' && !spaced;
    if (!abbreviationDot) tokens.push({ kind: match.kind, text: match.found[0], offset: index, spaced });
    index += match.found[0].length;
    spaced = false;
  }
  return tokens;
}

const TOKEN_PATTERNS: readonly [TokenKind, RegExp][] = [
  ['number', /^[0-9]+/u],
  ['word', /^\p{L}[\p{L}\p{M}'’]*/u],
  ['verse-separator', /^[:.]/u],
  ['dash', /^[-‐‑‒–—]/u],
  ['semicolon', /^;/u],
  ['comma', /^,/u],
];
