// Strings kept as UTF-8 bytes off the heap read back as the same bytes, past the first buffer's size and whatever their script.
import { describe, expect, it } from 'vitest';
import { PackedStrings } from '../../../build/writers/packed-strings.ts';

describe('PackedStrings', () => {
  it('gives back each string pushed as its UTF-8 bytes, in order, empty and non-ASCII ones too', () => {
    const texts = ['"GEN.1.1"', '', '{"usfm":"PSA","chapter":119,"verse":176}', 'Ésaïe ’s', '𝔊'];
    const packed = new PackedStrings();
    for (const text of texts) packed.push(text);
    expect(packed.size).toBe(texts.length);
    expect(texts.map((_, index) => Buffer.from(packed.bytes(index)).toString('utf8'))).toEqual(texts);
  });

  it('keeps every string when they outgrow the first buffer and the first table of ends', () => {
    const texts = Array.from({ length: 20_000 }, (_, index) => `{"id":"JHN.${index}.${index % 7}","é":${index}}`);
    const packed = new PackedStrings();
    for (const text of texts) packed.push(text);
    expect(texts.reduce((bytes, text) => bytes + Buffer.byteLength(text), 0)).toBeGreaterThan(64 * 1024);
    expect(texts.every((text, index) => Buffer.from(packed.bytes(index)).toString('utf8') === text)).toBe(true);
  });
});
