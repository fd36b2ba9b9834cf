// MiniSearch's default tokenizer (`text.split(/[\n\r\p{Z}\p{P}]+/u)`), the same pieces, by a scan over character codes.

/** MiniSearch 7's SPACE_OR_PUNCTUATION: the separators between a text's words. */
const SEPARATOR = /^[\n\r\p{Z}\p{P}]$/u;

/** Per UTF-16 code unit outside the surrogates: 0 not yet asked, 1 a separator, 2 not one (filled as met). */
const bmp = new Uint8Array(0x10000);
/** Code points above U+FFFF, as met. */
const astral = new Map<number, boolean>();

/**
 * `text.split(/[\n\r\p{Z}\p{P}]+/u)`: the same strings, empty ones included (a text that starts or
 * ends with a separator, an empty text), in the same order.
 *
 * Why not the regular expression: a split with a Unicode property class ran at about a quarter of the
 * search index's build (measured in the index thread's CPU profile, 155,000 verses); here each
 * character is looked up in a table that the expression itself fills, once per distinct character,
 * so what counts as a separator stays the expression's answer.
 *
 * @example splitWords('In the beginning, God') // ['In', 'the', 'beginning', 'God']
 */
export function splitWords(text: string): string[] {
  const bounds = new WordBounds();
  findWords(text, bounds);
  const words: string[] = [];
  for (let word = 0; word < bounds.count; word++) words.push(text.slice(bounds.offsets[2 * word], bounds.offsets[2 * word + 1]));
  return words;
}

/** Where each word of a text starts and ends: word i is offsets[2i] to offsets[2i + 1] (UTF-16 offsets); reused from text to text. */
export class WordBounds {
  offsets = new Int32Array(256);
  count = 0;

  push(start: number, end: number): void {
    if (2 * this.count + 2 > this.offsets.length) {
      const larger = new Int32Array(this.offsets.length * 2);
      larger.set(this.offsets);
      this.offsets = larger;
    }
    this.offsets[2 * this.count] = start;
    this.offsets[2 * this.count + 1] = end;
    this.count++;
  }
}

/**
 * The words `splitWords` returns, as offsets into `text` written into `bounds` (its previous words
 * dropped): the search index looks each word up where it stands, without a string for it
 * (token-table.ts).
 *
 * @example const bounds = new WordBounds(); findWords('In the', bounds); // bounds.count 2, offsets 0, 2, 3, 6
 */
export function findWords(text: string, bounds: WordBounds): void {
  bounds.count = 0;
  const length = text.length;
  let start = 0;
  let at = 0;
  while (at < length) {
    const unit = text.charCodeAt(at);
    // Letters and digits below U+D800 (nearly every character of a verse): one look-up in the filled table.
    if (bmp[unit] === 2) {
      at++;
      continue;
    }
    const width = separatorWidth(text, at);
    if (width === 0) {
      at += characterWidth(text, at);
      continue;
    }
    bounds.push(start, at);
    at += width;
    for (let next = separatorWidth(text, at); next > 0; next = separatorWidth(text, at)) at += next;
    start = at;
  }
  bounds.push(start, length);
}

/** The length in code units of the separator at `at` (1 or 2), or 0 when the character there is none (or the text has ended). */
function separatorWidth(text: string, at: number): number {
  if (at >= text.length) return 0;
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdfff) {
    let known = bmp[unit]!;
    if (known === 0) {
      known = SEPARATOR.test(String.fromCharCode(unit)) ? 1 : 2;
      bmp[unit] = known;
    }
    return known === 1 ? 1 : 0;
  }
  if (characterWidth(text, at) === 1) return 0; // a lone surrogate: a code point of its own, neither space nor punctuation
  const point = text.codePointAt(at)!;
  let known = astral.get(point);
  if (known === undefined) {
    known = SEPARATOR.test(String.fromCodePoint(point));
    astral.set(point, known);
  }
  return known ? 2 : 0;
}

/** 2 at a surrogate pair, else 1. */
function characterWidth(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdbff || at + 1 >= text.length) return 1;
  const low = text.charCodeAt(at + 1);
  return low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
}
