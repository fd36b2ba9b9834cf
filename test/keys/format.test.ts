import { describe, expect, it } from 'vitest';
import { generateKey, isWellFormedKey, KEY_LENGTH, KEY_PREFIX, KEY_RANDOM_LENGTH, keyHint } from '../../src/keys/format.ts';

describe('API key format', () => {
  it('is sk_live_ + 33 random base62 characters (≥ 192 bits) + a 6-character checksum', () => {
    const key = generateKey();
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{39}$/);
    expect(key).toHaveLength(KEY_LENGTH);
    expect(KEY_RANDOM_LENGTH * Math.log2(62)).toBeGreaterThanOrEqual(192);
    expect(isWellFormedKey(key)).toBe(true);
  });

  it('never repeats and uses the whole alphabet', () => {
    const keys = Array.from({ length: 2000 }, generateKey);
    expect(new Set(keys).size).toBe(keys.length);
    const characters = new Set(keys.flatMap((key) => [...key.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_RANDOM_LENGTH)]));
    expect(characters.size).toBe(62);
  });

  it('refuses every one-character typo of a key', () => {
    const key = generateKey();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let typos = 0;
    for (let position = KEY_PREFIX.length; position < key.length; position++) {
      for (const replacement of alphabet) {
        if (replacement === key[position]) continue;
        const typo = key.slice(0, position) + replacement + key.slice(position + 1);
        expect(isWellFormedKey(typo), typo).toBe(false);
        typos++;
      }
    }
    expect(typos).toBe(39 * 61);
  });

  it('refuses a wrong prefix, a wrong length, other characters and surrounding spaces', () => {
    const key = generateKey();
    for (const bad of [
      key.replace('sk_live_', 'sk_test_'),
      key.slice(0, -1),
      `${key}a`,
      `${key.slice(0, 20)}-${key.slice(21)}`,
      ` ${key}`,
      key.toUpperCase(),
      '',
      'sk_live_',
    ]) {
      expect(isWellFormedKey(bad), bad).toBe(false);
    }
  });

  it('shows the last 4 characters as the hint', () => {
    const key = generateKey();
    expect(keyHint(key)).toBe(key.slice(-4));
  });
});
