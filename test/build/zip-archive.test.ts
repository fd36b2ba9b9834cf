import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzipEntries, ZipError } from '../../build/zip-archive.ts';

describe('unzipEntries', () => {
  const zip = zipSync({
    'mods.d/kjv.conf': [strToU8('[KJV]\nModDrv=zText\n'), { level: 0 }],
    'modules/texts/ztext/kjv/nt.bzz': strToU8('In the beginning was the Word. '.repeat(200)),
    'Ésaïe.usfm': strToU8('\\id ISA\n\\c 1\n\\v 1 Vision d’Ésaïe'),
    'empty/': new Uint8Array(0),
  });

  it('gives the same names and bytes as fflate, stored and deflated entries alike', () => {
    const ours = unzipEntries(zip);
    const theirs = unzipSync(zip);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    for (const name of Object.keys(theirs)) expect(Buffer.from(ours[name]!).equals(Buffer.from(theirs[name]!))).toBe(true);
    expect(Object.keys(ours)).toContain('Ésaïe.usfm');
  });

  it('inflates only the entries the filter keeps, and tells it their sizes', () => {
    const seen: { name: string; compression: number }[] = [];
    const files = unzipEntries(zip, (entry) => {
      seen.push({ name: entry.name, compression: entry.compression });
      return entry.name.endsWith('.conf');
    });
    expect(Object.keys(files)).toEqual(['mods.d/kjv.conf']);
    expect(seen).toContainEqual({ name: 'mods.d/kjv.conf', compression: 0 });
    expect(seen).toContainEqual({ name: 'modules/texts/ztext/kjv/nt.bzz', compression: 8 });
  });

  it('refuses bytes that are not a zip archive', () => {
    expect(() => unzipEntries(strToU8('not a zip at all, just some text that is long enough'))).toThrow(ZipError);
  });
});
