// The operator command `copy-to-postgres`: the SQLite database into the empty PostgreSQL one of DATABASE_URL, verified by counts.
import fs from 'node:fs';
import path from 'node:path';
import Database from '../../build/contract/sqlite-driver.ts';
import { describeTarget } from '../db/connect.ts';
import { COPIED_TABLES, CopyRefusal, copySqliteToPostgres } from '../db/copy-to-postgres.ts';
import { databaseInUse } from '../db/in-use.ts';
import { readMigrations } from '../db/migrate.ts';
import { defaultMigrationsDir } from '../db/open.ts';
import { openPostgresDatabase } from '../db/postgres/database.ts';
import { loadPostgresDriver } from '../db/postgres/driver.ts';
import { applyPostgresMigrations } from '../db/postgres/migrate.ts';
import { parseCommandLine } from './arguments.ts';
import { CliError, type DatabaseFileCommand } from './command.ts';

/** A command on the files themselves: it opens the SQLite file read-only and PostgreSQL on its own, never through the CLI's storage. */
export const copyCommand: DatabaseFileCommand = {
  name: 'copy-to-postgres',
  database: 'file',
  arguments: '[--from FILE]',
  summary:
    'copy the SQLite database (DATABASE_PATH, or FILE) into the empty PostgreSQL database of DATABASE_URL: one transaction, ids kept, checked by counts',
  async run(args, { config, print }) {
    const { values } = parseCommandLine(this.name, args, { options: { from: { type: 'string' } } });
    if (!config.postgres) throw new CliError('DATABASE_URL is not set: set it to the empty PostgreSQL database to copy into.');
    const file = values.from === undefined ? config.databasePath : path.resolve(values.from);
    if (file === ':memory:' || !fs.existsSync(file)) throw new CliError(`No SQLite database at ${file}.`);
    if (databaseInUse(file)) {
      throw new CliError(
        `${file} is open in another process (SQLite reports it locked): a service still using it would go on writing there after the copy (sign-ups, keys), and PostgreSQL would miss it. ` +
          'Stop the service, then copy; or copy a backup on purpose (cli backup FILE, then copy-to-postgres --from FILE). Nothing was written.',
      );
    }
    const sqlite = openSource(file);
    const postgres = openPostgresDatabase(await loadPostgresDriver(), { ...config.postgres, applicationName: 'church-api-copy' });
    try {
      await applyPostgresMigrations(postgres);
      const started = Date.now();
      const copies = await copySqliteToPostgres(sqlite, postgres);
      const width = Math.max(...COPIED_TABLES.map((table) => table.length));
      print(`${'table'.padEnd(width)}  sqlite  postgres`);
      for (const copy of copies)
        print(`${copy.table.padEnd(width)}  ${String(copy.sqliteRows).padStart(6)}  ${String(copy.postgresRows).padStart(8)}`);
      const rows = copies.reduce((sum, copy) => sum + copy.postgresRows, 0);
      print(
        `Copied ${rows} rows from ${file} into ${describeTarget(config.postgres.url)} in ${Date.now() - started} ms; every count matches.`,
      );
      return 0;
    } catch (error) {
      if (error instanceof CopyRefusal) throw new CliError(`Not copied: ${error.message}.`);
      // One transaction: whatever failed, it was rolled back.
      throw new CliError(`Not copied: ${error instanceof Error ? error.message : String(error)}; nothing was written.`);
    } finally {
      sqlite.close();
      await postgres.close();
    }
  },
};

/** The source, read-only (the copy never writes to it), at this version's schema. */
function openSource(file: string): Database.Database {
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new CliError(`${file} cannot be opened as a SQLite database (${error instanceof Error ? error.message : String(error)}).`);
  }
  const latest = readMigrations(defaultMigrationsDir()).length;
  let version = 0;
  try {
    version = (sqlite.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
  } catch {
    // No schema_migrations: not this service's database, or never migrated.
  }
  if (version !== latest) {
    sqlite.close();
    throw new CliError(
      `${file} is at schema version ${version}, this version copies ${latest}: run any command on it once with DATABASE_PATH=${file} and without DATABASE_URL to migrate it.`,
    );
  }
  return sqlite;
}
