// ByteChunks writes the bytes String() and UTF-8 encoding would, and hands them out in chunks without losing any.
import { describe, expect, it } from 'vitest';
import { ByteChunks } from '../../../build/writers/byte-chunks.ts';

describe('ByteChunks', () => {
  it('writes whole numbers as String() does, at every number of digits', () => {
    const values = [0, 1, 9, 10, 99, 100, 12345, 999_999, 1_000_000, 2 ** 31 - 1];
    const out = new ByteChunks();
    for (const value of values) {
      out.integer(value);
      out.byte(0x2c);
    }
    expect(out.take().toString('latin1')).toBe(values.map((value) => `${value},`).join(''));
  });

  it('writes ASCII and UTF-8 text as Buffer.from does', () => {
    const out = new ByteChunks();
    out.ascii('{"index":[');
    out.utf8('"œuvres","Éternel","João","𝔘"');
    expect(out.take()).toEqual(Buffer.from('{"index":["œuvres","Éternel","João","𝔘"'));
  });

  it('says when a chunk is full, grows for an entry larger than its room, and starts afresh after take', () => {
    const out = new ByteChunks(16);
    out.ascii('0123456789');
    expect(out.full).toBe(false);
    const long = 'é'.repeat(5000);
    out.utf8(long);
    expect(out.full).toBe(true);
    const first = out.take();
    out.ascii('next');
    expect(first.toString('utf8')).toBe(`0123456789${long}`);
    expect(out.take().toString('latin1')).toBe('next');
  });
});
