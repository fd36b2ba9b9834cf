// Test helper: one PostgreSQL server per test file, and a fresh migrated database for each test that asks (a copy of a migrated template).
import { afterAll, beforeAll } from 'vitest';
import { openPostgresDatabase, type PostgresDatabase, type PostgresSettings } from '../../src/db/postgres/database.ts';
import { loadPostgresDriver, type PostgresDriver } from '../../src/db/postgres/driver.ts';
import { applyPostgresMigrations } from '../../src/db/postgres/migrate.ts';
import { type PostgresTestServer, startPostgresServer } from './postgres-server.ts';
import { requirement } from './requirements.ts';

export interface TestDatabase {
  name: string;
  url: string;
  /** A new pool on this database, as another instance of the service would have; closed by close(). */
  open(settings?: Partial<PostgresSettings>): PostgresDatabase;
  /** Closes every pool opened on it. */
  close(): Promise<void>;
}

export interface PostgresDatabases {
  /** The file's server (started in beforeAll). */
  server(): PostgresTestServer;
  /** An empty database with every migration applied. */
  migrated(): Promise<TestDatabase>;
  /** An empty database without any table. */
  empty(): Promise<TestDatabase>;
}

/** Settings of the pools tests open: the service's defaults. */
export const TEST_POOL_SETTINGS: Omit<PostgresSettings, 'url'> = {
  maxConnections: 10,
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 5_000,
  applicationName: 'church-api-test',
};

/**
 * Call inside a describe block guarded by describeWith(['postgres'], …): starts the server before
 * the block's tests and stops it after them. Migrating once into a template and copying it makes a
 * fresh database per test cheap (CREATE DATABASE … TEMPLATE).
 *
 * @example const databases = usePostgresDatabases(); beforeEach(async () => (db = await databases.migrated()));
 */
export function usePostgresDatabases(): PostgresDatabases {
  let server: PostgresTestServer | undefined;
  let template: string | undefined;
  let driver: PostgresDriver | undefined;

  beforeAll(async () => {
    driver = await loadPostgresDriver();
    server = await startPostgresServer(requirement('postgres').path!);
    const created = await server.createDatabase();
    const db = openPostgresDatabase(driver, { url: created.url, ...TEST_POOL_SETTINGS });
    await applyPostgresMigrations(db);
    await db.close();
    template = created.name;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const database = async (options: { template?: string }): Promise<TestDatabase> => {
    const { name, url } = await server!.createDatabase(options);
    const pools: PostgresDatabase[] = [];
    return {
      name,
      url,
      open(settings = {}) {
        const pool = openPostgresDatabase(driver!, { url, ...TEST_POOL_SETTINGS, ...settings });
        pools.push(pool);
        return pool;
      },
      async close() {
        await Promise.all(pools.map((pool) => pool.close()));
      },
    };
  };

  return {
    server: () => server!,
    migrated: () => database({ template }),
    empty: () => database({}),
  };
}
