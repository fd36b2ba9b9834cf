// Splits a Bible reference ("1 Cor 13:4-7; Ps 23") into numbers, words and punctuation, with their positions.
import { ReferenceSyntaxError } from './reference-syntax-error.ts';

export type TokenKind = 'number' | 'word' | 'colon' | 'dot' | 'comma' | 'semicolon' | 'dash';

export interface Token {
  kind: TokenKind;
  /** The token as written (a number with its part letter: "14a"). */
  text: string;
  /** 0-based index of its first character in the text. */
  offset: number;
  /** True when a space (or nothing at all, at the start) stands before it; "1Co" is 1 and "Co" without a space. */
  spaced: boolean;
  /** For a dot: it follows a word with no space, as an abbreviation's dot does ("Gen.", "e.v.", but also "3s.10"). */
  afterWord?: boolean;
  /** For a number: its value. */
  value?: number;
  /**
   * For a number: the letters written right after it, "a" in "14a" or "ab" in "1ab" (parts of a
   * verse, read as the whole verse), or "e" in "2e" (an ordinal, read with the book's name).
   */
  part?: string;
}

/**
 * The tokens of `text`, in one pass. A dot right after a word is marked `afterWord`: the grammar
 * reads it as an abbreviation's dot ("Gen.") or, after "s" in "3,2s.10", a list separator. Letters with
 * their accents and apostrophes make words; dashes of every width make ranges; a number may carry
 * up to three letters a-e written right after it ("14a", "1ab", "2e"). Throws ReferenceSyntaxError on any other character.
 *
 * @example tokenize('Jn. 3.16').map((t) => t.kind) // ['word', 'dot', 'number', 'dot', 'number']
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let spaced = true;
  while (index < text.length) {
    SPACE.lastIndex = index;
    if (SPACE.test(text)) {
      index = SPACE.lastIndex;
      spaced = true;
      continue;
    }
    const token = readToken(text, index, spaced);
    if (!token)
      throw new ReferenceSyntaxError(
        index,
        String.fromCodePoint(text.codePointAt(index)!),
        'expected a book, a number or one of : . , ; -',
      );
    const previous = tokens[tokens.length - 1];
    if (token.kind === 'dot' && previous?.kind === 'word' && !spaced) token.afterWord = true;
    tokens.push(token);
    index += token.text.length;
    spaced = false;
  }
  return tokens;
}

const SPACE = /\s+/uy;
const NUMBER = /([0-9]+)([a-e]{1,3}(?![\p{L}\p{M}]))?/uy;
const WORD = /\p{L}[\p{L}\p{M}'’]*/uy;
const PUNCTUATION: Readonly<Record<string, TokenKind>> = {
  ':': 'colon',
  '.': 'dot',
  ',': 'comma',
  ';': 'semicolon',
  '-': 'dash',
  '‐': 'dash',
  '‑': 'dash',
  '‒': 'dash',
  '–': 'dash',
  '—': 'dash',
};

function readToken(text: string, offset: number, spaced: boolean): Token | undefined {
  NUMBER.lastIndex = offset;
  const number = NUMBER.exec(text);
  if (number) {
    const token: Token = { kind: 'number', text: number[0], offset, spaced, value: Number(number[1]) };
    if (number[2]) token.part = number[2];
    return token;
  }
  WORD.lastIndex = offset;
  const word = WORD.exec(text);
  if (word) return { kind: 'word', text: word[0], offset, spaced };
  const kind = PUNCTUATION[text[offset]!];
  return kind ? { kind, text: text[offset]!, offset, spaced } : undefined;
}
