// PostgreSQL migrations: applied once, in order, each in its own transaction, even when several instances start at the same moment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readMigrations } from '../../src/db/migrate.ts';
import { applyPostgresMigrations, defaultPostgresMigrationsDir } from '../../src/db/postgres/migrate.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';

const INSTANCES = 6;

describeWith(['postgres'], 'PostgreSQL migrations', () => {
  const databases = usePostgresDatabases();

  it('has the same migrations, by number and name, as the SQLite backend', () => {
    const names = (dir?: string) =>
      readMigrations(dir ?? path.resolve(import.meta.dirname, '../../data/migrations')).map((m) => `${m.version}_${m.name}`);
    expect(names(defaultPostgresMigrationsDir())).toEqual(names());
  });

  it(`migrates once when ${INSTANCES} instances start together: one applies every version, the others find nothing to do`, async () => {
    const database = await databases.empty();
    try {
      const pools = Array.from({ length: INSTANCES }, () => database.open());
      const results = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool)));
      const versions = readMigrations(defaultPostgresMigrationsDir()).map((migration) => migration.version);
      expect(results.filter((applied) => applied.length > 0)).toEqual([versions]);
      const recorded = await databases
        .server()
        .query<{ version: number }>(database.name, 'SELECT version FROM schema_migrations ORDER BY version');
      expect(recorded.map((row) => row.version)).toEqual(versions);
      expect(await applyPostgresMigrations(pools[0])).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('applies a failing migration not at all, and keeps the ones before it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-pg-migrations-'));
    const database = await databases.empty();
    try {
      fs.writeFileSync(path.join(dir, '001_first.sql'), 'CREATE TABLE first (id integer PRIMARY KEY);');
      fs.writeFileSync(path.join(dir, '002_broken.sql'), 'CREATE TABLE second (id integer PRIMARY KEY);\nSELECT no_such_function();');
      const db = database.open();
      await expect(applyPostgresMigrations(db, { dir })).rejects.toThrow(/002_broken failed: .*no_such_function/);
      const tables = await databases
        .server()
        .query<{ name: string }>(database.name, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
      expect(tables.map((table) => table.name)).toEqual(['first', 'schema_migrations']);
      // Fixed, it goes on from where it stopped.
      fs.writeFileSync(path.join(dir, '002_broken.sql'), 'CREATE TABLE second (id integer PRIMARY KEY);');
      expect(await applyPostgresMigrations(db, { dir })).toEqual([2]);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
