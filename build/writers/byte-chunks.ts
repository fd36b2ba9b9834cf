// Text written straight into bytes, handed out in chunks: for large generated files whose text is mostly ASCII punctuation and numbers.

/** Bytes of room kept past a chunk's size, so one entry rarely needs the buffer to grow. */
const SLACK = 4096;

/**
 * A byte buffer filled with ASCII, UTF-8 text and whole numbers, taken in chunks of about
 * `chunkBytes` by whoever writes them out (`full`, then `take`).
 *
 * Why not strings joined and then encoded: the search indexes (five files of 8.5-9 MB, three
 * quarters of them document numbers and frequencies) built as 64 kB strings by concatenation,
 * then copied to a Buffer each, took about 1.3 s of the index thread's CPU in a full build
 * (measured with `perf`), and their strings and ropes were a large part of its garbage collection.
 * Digits written as bytes make no string at all.
 *
 * @example const out = new ByteChunks(); out.ascii('{"n":'); out.integer(42); out.ascii('}'); const bytes = out.take();
 */
export class ByteChunks {
  #buffer: Buffer;
  #length = 0;

  constructor(readonly chunkBytes = 64 * 1024) {
    this.#buffer = Buffer.allocUnsafe(chunkBytes + SLACK);
  }

  /** Whether the bytes written since the last `take` reach a chunk's size. */
  get full(): boolean {
    return this.#length >= this.chunkBytes;
  }

  /** Text known to be ASCII (JSON punctuation, keys, numbers already as text). */
  ascii(text: string): void {
    this.#room(text.length);
    this.#length += this.#buffer.write(text, this.#length, 'latin1');
  }

  /** Any text, as UTF-8. */
  utf8(text: string): void {
    this.#room(text.length * 3);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** Bytes already encoded (UTF-8 text). */
  bytes(bytes: Uint8Array): void {
    this.#room(bytes.byteLength);
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.byteLength;
  }

  /** One ASCII character, by its code. */
  byte(code: number): void {
    this.#room(1);
    this.#buffer[this.#length++] = code;
  }

  /** A whole number from 0 to 2^31 - 1, in decimal, as `String(value)` writes it. */
  integer(value: number): void {
    this.#room(10);
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    const buffer = this.#buffer;
    let at = this.#length + digits;
    this.#length = at;
    let rest = value;
    do {
      buffer[--at] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** The bytes written since the last `take` (a buffer of their own); writing goes on into a new one. */
  take(): Buffer {
    const taken = this.#buffer.subarray(0, this.#length);
    this.#buffer = Buffer.allocUnsafe(this.chunkBytes + SLACK);
    this.#length = 0;
    return taken;
  }

  /** Makes room for `bytes` more, growing the buffer when an entry runs past the slack. */
  #room(bytes: number): void {
    if (this.#length + bytes <= this.#buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + bytes));
    this.#buffer.copy(larger, 0, 0, this.#length);
    this.#buffer = larger;
  }
}
