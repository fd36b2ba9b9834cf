// Addresses are parsed strictly (one bare addr-spec) and compared with the reserved list by their TR39 skeleton.
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { skeleton } from '../../src/accounts/confusables.ts';
import {
  addressOrUndefined,
  DEFAULT_RESERVED_MATCHING,
  parseEmailAddress,
  reservedMatchKey,
  reservedMatchRules,
} from '../../src/accounts/email-address.ts';
import { AccountRefusal } from '../../src/accounts/refusal.ts';

/** The address nodemailer would send to, as its own parser reads the text (what a lax check hands over). */
async function nodemailerRecipients(to: string): Promise<string[]> {
  const composer = nodemailer.createTransport({ jsonTransport: true });
  const info = await composer.sendMail({ from: 'a@example.org', to, text: 'x' });
  return info.envelope.to as string[];
}

describe('an e-mail address', () => {
  it('is one bare addr-spec, stored with a lower-case local part and an ASCII domain', () => {
    expect(parseEmailAddress('  Ana@Example.ORG ')).toBe('ana@example.org');
    expect(parseEmailAddress("o'brien+news@church.example")).toBe("o'brien+news@church.example");
    expect(parseEmailAddress('ana@bücher.example')).toBe('ana@xn--bcher-kva.example');
    expect(parseEmailAddress('ana@ＥＸＡＭＰＬＥ.org')).toBe('ana@example.org');
  });

  it('refuses what a mailer would read as another address, a list or a named address', async () => {
    const tricks = ['x<pastor@church.example>', 'foo,pastor@church.example', 'Pastor <pastor@church.example>', 'a;pastor@church.example'];
    for (const trick of tricks) {
      // nodemailer finds pastor@church.example in each: the reason they must never reach it.
      expect(await nodemailerRecipients(trick), trick).toContain('pastor@church.example');
      expect(() => parseEmailAddress(trick), trick).toThrow(AccountRefusal);
    }
  });

  it('refuses quotes, comments, spaces, IP literals, relay syntax, a trailing dot and malformed dots or labels', () => {
    const refused = [
      '"pastor"@church.example',
      'pastor(comment)@church.example',
      'pas tor@church.example',
      'pastor@[192.0.2.1]',
      'pastor@192.0.2.1',
      'pastor%church.example@relay.example',
      'pastor@church.example.',
      '.pastor@church.example',
      'pastor.@church.example',
      'pa..stor@church.example',
      'pastor@church..example',
      'pastor@-church.example',
      'pastor@church',
      'pastor@church.example@other.example',
      'pastor@ex%61mple.org',
      'pastor@',
      '@church.example',
      '',
      `${'a'.repeat(65)}@church.example`,
      `a@${'b'.repeat(64)}.example`,
    ];
    for (const address of refused) expect(addressOrUndefined(address), address).toBeUndefined();
  });

  it('refuses a local part outside ASCII: a Cyrillic "а" cannot stand for a Latin one there', () => {
    expect(addressOrUndefined('p\u0430stor@church.example')).toBeUndefined();
    expect(addressOrUndefined('pastor@church.example')).toBe('pastor@church.example');
  });
});

describe('the key an address is compared with the reserved list by', () => {
  const key = (address: string) => reservedMatchKey(parseEmailAddress(address), DEFAULT_RESERVED_MATCHING);

  it('is the same for a homoglyph domain (Cyrillic "а", Greek "ο") and for "rn" in place of "m"', () => {
    expect(key('pastor@ch\u0430pel.example')).toBe(key('pastor@chapel.example'));
    expect(key('pastor@church.ex\u0430mple')).toBe(key('pastor@church.example'));
    expect(key('pastor@chapel.\u03bfrg')).toBe(key('pastor@chapel.org'));
    expect(key('rnary@church.example')).toBe(key('mary@church.example'));
    expect(key('paul@church.example')).not.toBe(key('peter@church.example'));
  });

  it('ignores a +tag by default, and dots only when the operator says so', () => {
    expect(key('pastor+anything@church.example')).toBe(key('pastor@church.example'));
    expect(key('p.astor@church.example')).not.toBe(key('pastor@church.example'));
    const withDots = { plusTags: true, dots: true };
    expect(reservedMatchKey('p.astor+x@church.example', withDots)).toBe(reservedMatchKey('pastor@church.example', withDots));
    const exact = { plusTags: false, dots: false };
    expect(reservedMatchKey('pastor+x@church.example', exact)).not.toBe(reservedMatchKey('pastor@church.example', exact));
  });

  it('names its rules and the Unicode version of its data, so a change re-keys the list', () => {
    expect(reservedMatchRules(DEFAULT_RESERVED_MATCHING)).toBe('tr39-17.0.0 plus-tags');
    expect(reservedMatchRules({ plusTags: true, dots: true })).toBe('tr39-17.0.0 plus-tags dots');
  });

  it('is the TR39 skeleton: NFD, prototypes, NFD', () => {
    expect(skeleton('\u0430')).toBe('a');
    expect(skeleton('1')).toBe('l');
    // é decomposes first, so its base letter is mapped and the accent stays.
    expect(skeleton('\u00e9')).toBe('e\u0301');
  });
});
