// TokenTable finds a token by its span in any text, numbers tokens in order of addition, and keeps them all as it grows.
import { describe, expect, it } from 'vitest';
import { TokenTable } from '../../../build/writers/token-table.ts';

describe('TokenTable', () => {
  it('finds an added token by its span in another text, and not a token it was never given', () => {
    const tokens = new TokenTable();
    expect(tokens.add('God')).toBe(0);
    expect(tokens.add('Éternel')).toBe(1);
    expect(tokens.find('In God we trust', 3, 6)).toBe(0);
    expect(tokens.find("l'Éternel dit", 2, 9)).toBe(1);
    expect(tokens.find('Gods', 0, 4)).toBe(-1);
    expect(tokens.find('Go', 0, 2)).toBe(-1);
    expect(tokens.find('god', 0, 3)).toBe(-1);
  });

  it('tells the empty token apart, and keeps every number when the table grows many times', () => {
    const tokens = new TokenTable();
    expect(tokens.find('', 0, 0)).toBe(-1);
    expect(tokens.add('')).toBe(0);
    const words = Array.from({ length: 20_000 }, (_, index) => `w${index.toString(36)}`);
    for (const [index, word] of words.entries()) expect(tokens.add(word)).toBe(index + 1);
    expect(tokens.size).toBe(words.length + 1);
    expect(tokens.find('x', 1, 1)).toBe(0);
    for (const [index, word] of words.entries()) expect(tokens.find(` ${word} `, 1, word.length + 1)).toBe(index + 1);
  });
});
