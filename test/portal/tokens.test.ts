// One-time tokens: verification links live 24 hours, reset links 1 hour; single use; only their hash is stored.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createSqliteTokenRepository } from '../../src/portal/storage/sqlite-token-repository.ts';
import { createOneTimeTokens } from '../../src/portal/tokens.ts';

async function setUp() {
  const db = openDatabase(':memory:');
  const developer = (await createSqliteAccountRepository(db).insertDeveloper({
    name: 'Ana',
    email: 'ana@example.org',
    emailVerifiedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
  }))!;
  let clock = new Date('2026-03-01T10:00:00Z');
  const tokens = createOneTimeTokens(createSqliteTokenRepository(db), () => clock);
  return { db, developer, tokens, advance: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
}

describe('one-time tokens', () => {
  it('for verification work until 24 hours have passed', async () => {
    const { tokens, developer, advance, db } = await setUp();
    const token = await tokens.issue(developer.id, 'verify-email');
    advance(24 * 3600_000 - 1);
    expect(await tokens.peek(token, 'verify-email')).toBe(developer.id);
    advance(1);
    expect(await tokens.consume(token, 'verify-email')).toBeUndefined();
    db.close();
  });

  it('for a reset work until 1 hour has passed, once', async () => {
    const { tokens, developer, advance, db } = await setUp();
    const late = await tokens.issue(developer.id, 'reset-password');
    advance(3600_000);
    expect(await tokens.consume(late, 'reset-password')).toBeUndefined();
    const token = await tokens.issue(developer.id, 'reset-password');
    advance(3600_000 - 1);
    expect(await tokens.consume(token, 'reset-password')).toBe(developer.id);
    expect(await tokens.consume(token, 'reset-password')).toBeUndefined();
    db.close();
  });

  it('are 43 URL-safe characters, stored only as their SHA-256', async () => {
    const { tokens, developer, db } = await setUp();
    const token = await tokens.issue(developer.id, 'verify-email');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = db.prepare('SELECT token_hash FROM one_time_tokens').pluck().all();
    // Computed here, not with the implementation's own helper: SHA-256 of the token's UTF-8 bytes, lowercase hex.
    expect(stored).toEqual([createHash('sha256').update(token, 'utf8').digest('hex')]);
    expect(stored[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await tokens.consume('not-a-token', 'verify-email')).toBeUndefined();
    db.close();
  });
});
