// The key check on PostgreSQL: on connections of its own, planned once per connection rather than on every request.
import { expect, it } from 'vitest';
import { createPostgresAccountRepository } from '../../src/accounts/postgres-repository.ts';
import { PER_REQUEST_CONNECTIONS } from '../../src/db/postgres/database.ts';
import { TEST_POOL_SETTINGS, usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';

const T0 = '2026-03-01T10:00:00.000Z';
const FINGERPRINT = 'a1'.repeat(32);

describeWith(['postgres'], 'the key check on PostgreSQL', () => {
  const databases = usePostgresDatabases();

  it('runs on the per-request connections, where PostgreSQL plans it once and reuses the plan; other connections keep custom plans', async () => {
    const database = await databases.migrated();
    try {
      const db = database.open();
      const accounts = createPostgresAccountRepository(db);
      const ana = (await accounts.insertDeveloper({ name: 'Ana', email: 'ana@example.org', emailVerifiedAt: T0, createdAt: T0 }))!;
      const key = (await accounts.insertKeyIfActiveBelow(ana.id, 5, { name: 'k', fingerprint: FINGERPRINT, hint: 'ab12', createdAt: T0 }))!;

      // One after the other: each its own statement, on the one connection the pool has made so far.
      for (let request = 0; request < 12; request++) {
        expect(await accounts.activeKeyByFingerprint(FINGERPRINT)).toEqual({ id: key.id, developerId: ana.id });
      }

      const perRequest = await databases
        .server()
        .query<{ count: string }>(database.name, 'SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
          database.name,
          `${TEST_POOL_SETTINGS.applicationName} (per request)`,
        ]);
      expect(Number(perRequest[0]!.count)).toBeGreaterThanOrEqual(1);
      expect(Number(perRequest[0]!.count)).toBeLessThanOrEqual(PER_REQUEST_CONNECTIONS);

      // Under PostgreSQL's default a one-fingerprint `= ANY($1)` would be planned twelve times (custom plans).
      expect(
        await db.perRequest.rows('SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1', [
          'active-keys-by-fingerprint',
        ]),
      ).toEqual([{ generic_plans: 12, custom_plans: 0 }]);
      expect(await db.rows('SHOW plan_cache_mode')).toEqual([{ plan_cache_mode: 'auto' }]);
    } finally {
      await database.close();
    }
  });
});
