// A migration that fails half-way leaves the schema it found (tables and schema_migrations), and the service refuses to start saying so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { loadConfig } from '../../src/config.ts';
import { applyMigrations, MigrationError } from '../../src/db/migrate.ts';
import { defaultMigrationsDir } from '../../src/db/open.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createServices } from '../../src/services.ts';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-migrate-'));
  folders.push(dir);
  return dir;
}

/** A database at schema version 2 (the first two shipped migrations), with the table migration 3 creates last already there. */
function databaseAtVersion2(file: string): void {
  const firstTwo = path.join(path.dirname(file), 'first-two');
  fs.mkdirSync(firstTwo);
  for (const name of fs.readdirSync(defaultMigrationsDir()).filter((entry) => /^00[12]_/.test(entry))) {
    fs.copyFileSync(path.join(defaultMigrationsDir(), name), path.join(firstTwo, name));
  }
  const db = new Database(file);
  applyMigrations(db, firstTwo);
  // Migration 3 creates this one after three other tables: it fails half-way.
  db.exec('CREATE TABLE one_time_tokens (id INTEGER PRIMARY KEY)');
  db.close();
}

function tablesAndVersions(file: string): { tables: string[]; versions: number[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      tables: db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[],
      versions: db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[],
    };
  } finally {
    db.close();
  }
}

describe('a migration that fails half-way', () => {
  it('leaves the tables and schema_migrations as they were, and says which migration failed', () => {
    const file = path.join(tempDir(), 'church.sqlite');
    databaseAtVersion2(file);
    const before = tablesAndVersions(file);
    expect(before.versions).toEqual([1, 2]);

    const db = new Database(file);
    let failure: unknown;
    try {
      applyMigrations(db, defaultMigrationsDir());
    } catch (error) {
      failure = error;
    } finally {
      db.close();
    }
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(
      /^migration 3 \(portal\) failed: table one_time_tokens already exists; nothing of it was applied, the database keeps schema version 2$/,
    );
    const after = tablesAndVersions(file);
    expect(after).toEqual(before);
    // The tables the migration made before the failing statement were rolled back with it.
    expect(after.tables).not.toContain('developer_passwords');
  });

  it('stops the service at start with one line naming the database, the migration and the schema kept', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'church.sqlite');
    databaseAtVersion2(file);
    const config = loadConfig({ DATABASE_PATH: file, KEY_SECRET_FILE: path.join(dir, 'key.secret'), LOG_LEVEL: 'silent' }, dir);
    await expect(createServices(config, createLogger('silent'))).rejects.toThrow(
      `DATABASE_PATH: cannot upgrade the database ${file}: migration 3 (portal) failed: table one_time_tokens already exists; nothing of it was applied, the database keeps schema version 2`,
    );
    expect(tablesAndVersions(file).versions).toEqual([1, 2]);
  });
});
