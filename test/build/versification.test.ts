// Versifications: the books and verse totals of SWORD's canon headers, KJV by default.
import { describe, expect, it } from 'vitest';
import { versificationByName } from '../../build/versification.ts';

const verseTotal = (name: string) => versificationByName(name).books.reduce((sum, book) => sum + book.verses.reduce((a, b) => a + b, 0), 0);

describe('versifications', () => {
  it('hold the books and verse totals of SWORD canon headers', () => {
    expect(versificationByName('KJV').books).toHaveLength(66);
    expect(verseTotal('KJV')).toBe(31102);
    expect(versificationByName('KJVA').books).toHaveLength(80);
    expect(verseTotal('KJVA')).toBe(36819);
    expect(verseTotal('NRSV')).toBe(31104);
  });

  it('default to KJV when the conf names none, and refuse unknown ones', () => {
    expect(versificationByName(undefined).name).toBe('KJV');
    expect(() => versificationByName('Synodal')).toThrow(/Unsupported/);
  });
});
