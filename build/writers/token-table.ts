// The distinct tokens of a text, numbered, found by their place in the text rather than as strings.

/**
 * The raw tokens the search index has met, each with its number (0, 1, … in order of first
 * appearance), looked up by a span of a text: an open-addressing table of FNV-1a hashes over the
 * span's UTF-16 code units, compared unit by unit.
 *
 * Why not a Map from token to number: each of the 3.9 million words of the five versions was first
 * cut out of its verse as a string, then hashed by V8 to be looked up, and most were garbage at
 * once; the Map's look-ups and the substrings were the largest part of adding a verse to the index
 * (measured with `perf` over a full build). Here a string is made only for a token seen the first time.
 *
 * @example const tokens = new TokenTable(); tokens.add('God'); tokens.find('In God', 3, 6) // 0
 */
export class TokenTable {
  /** Per slot: the number of the token there, or -1. Twice as many slots as tokens at least. */
  #slots = new Int32Array(1 << 12).fill(-1);
  readonly #tokens: string[] = [];
  readonly #hashes: number[] = [];

  /** Number of tokens. */
  get size(): number {
    return this.#tokens.length;
  }

  /** The number of the token `text.slice(start, end)`, or -1 when it has not been added. */
  find(text: string, start: number, end: number): number {
    const hash = spanHash(text, start, end);
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const number = this.#slots[slot];
      if (number === -1) return -1;
      if (this.#hashes[number] === hash && sameSpan(this.#tokens[number], text, start, end)) return number;
    }
  }

  /** Adds `token`, which `find` does not know, and returns its number. */
  add(token: string): number {
    const number = this.#tokens.length;
    const hash = spanHash(token, 0, token.length);
    this.#tokens.push(token);
    this.#hashes.push(hash);
    if (2 * this.#tokens.length > this.#slots.length) this.#grow();
    else this.#place(number, hash);
    return number;
  }

  #place(number: number, hash: number): void {
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    while (this.#slots[slot] !== -1) slot = (slot + 1) & mask;
    this.#slots[slot] = number;
  }

  #grow(): void {
    this.#slots = new Int32Array(this.#slots.length * 2).fill(-1);
    for (let number = 0; number < this.#tokens.length; number++) this.#place(number, this.#hashes[number]);
  }
}

/** FNV-1a (32 bits) over the UTF-16 code units of `text` from `start` to `end`. */
function spanHash(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return hash;
}

/** Whether `token` is `text.slice(start, end)`. */
function sameSpan(token: string, text: string, start: number, end: number): boolean {
  if (token.length !== end - start) return false;
  for (let at = 0; at < token.length; at++) if (token.charCodeAt(at) !== text.charCodeAt(start + at)) return false;
  return true;
}
