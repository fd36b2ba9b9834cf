// Many short strings kept as UTF-8 bytes one after another, off V8's heap, each read back by its number.

/**
 * A list of strings stored as their UTF-8 bytes in one growing buffer, with where each ends.
 *
 * Why not a `string[]`: the search index builder keeps two short strings per verse (its id and its
 * stored fields, as JSON) until the index is written, 62,000 per version. On the heap they outlived
 * the young generation and were copied into the old one: measured with --trace-gc-nvp over a full
 * build, the index thread's scavenges promoted 64 MB with them and 39 MB without (586 against 338 ms
 * of pauses, on the thread that ends the build). Here they are bytes in a Buffer, which no scavenge
 * copies, and they are written out as the bytes they already are.
 *
 * @example const ids = new PackedStrings(); ids.push('"GEN.1.1"'); ids.bytes(0) // the bytes of "GEN.1.1" with its quotes
 */
export class PackedStrings {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #length = 0;
  #ends = new Int32Array(1024);
  #count = 0;

  /** Number of strings. */
  get size(): number {
    return this.#count;
  }

  /** Appends `text`. */
  push(text: string): void {
    const most = text.length * 3;
    if (this.#length + most > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + most));
      this.#buffer.copy(larger, 0, 0, this.#length);
      this.#buffer = larger;
    }
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
    if (this.#count === this.#ends.length) {
      const larger = new Int32Array(this.#ends.length * 2);
      larger.set(this.#ends);
      this.#ends = larger;
    }
    this.#ends[this.#count++] = this.#length;
  }

  /** The UTF-8 bytes of string `index` (a view, valid until the next push). */
  bytes(index: number): Uint8Array {
    return this.#buffer.subarray(index === 0 ? 0 : this.#ends[index - 1], this.#ends[index]);
  }
}
