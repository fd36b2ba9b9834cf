// Password hashes (scrypt, self-describing, salted) and the rules a new password must meet.
import { describe, expect, it } from 'vitest';
import { passwordRefusal } from '../../src/portal/password-policy.ts';
import { createPasswordHasher, DEFAULT_SCRYPT_COST } from '../../src/portal/passwords.ts';

describe('password hashes', () => {
  const passwords = createPasswordHasher(1024);

  it('are salted scrypt hashes that name their cost, and verify only the right password', async () => {
    const first = await passwords.hash('plum orchard 47 lanterns');
    const second = await passwords.hash('plum orchard 47 lanterns');
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('plum');
    expect(await passwords.verify('plum orchard 47 lanterns', first)).toBe(true);
    expect(await passwords.verify('plum orchard 47 lantern', first)).toBe(false);
    expect(await passwords.verify('anything', 'not a hash')).toBe(false);
  });

  it('made at another cost still verify (the cost is read from the hash)', async () => {
    const older = await createPasswordHasher(2048).hash('correct horse battery staple');
    expect(await passwords.verify('correct horse battery staple', older)).toBe(true);
  });

  it('default to OWASP scrypt cost N=2^17, r=8, p=1, which needs an explicit maxmem', async () => {
    expect(DEFAULT_SCRYPT_COST).toBe(2 ** 17);
    const stored = await createPasswordHasher().hash('correct horse battery staple');
    expect(stored.startsWith('scrypt$131072$8$1$')).toBe(true);
  });

  it('answer false for an unknown account after the same work', async () => {
    expect(await passwords.verifyNothing('whatever it is')).toBe(false);
  });
});

describe('a new password', () => {
  it('has at least 12 characters (counted as characters, not bytes) and at most 200', () => {
    expect(passwordRefusal('eleven chr!')).toBe('Use at least 12 characters.');
    expect(passwordRefusal('twelve chars')).toBeUndefined();
    expect(passwordRefusal('crème brûlée')).toBeUndefined();
    expect(passwordRefusal(`${'x'.repeat(190)}abcdefghijk`)).toBe('Use at most 200 characters.');
  });

  it('is not on the list of common passwords, in any case', () => {
    expect(passwordRefusal('password1234')).toContain('most common');
    expect(passwordRefusal('QWERTYUIOP123')).toContain('most common');
    expect(passwordRefusal('iloveyou1234')).toContain('most common');
  });

  it('is not the e-mail address, nor one character repeated', () => {
    expect(passwordRefusal('ana@example.org', { email: 'Ana@Example.org' })).toContain('e-mail address');
    expect(passwordRefusal('aaaaaaaaaaaaaaaa')).toContain('too few characters');
  });
});
