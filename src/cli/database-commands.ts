// Operator commands on the database file itself: `backup <file>` (while the service runs) and `restore <file>` (with it stopped).
import path from 'node:path';
import type { Config } from '../config.ts';
import { backupDatabase, DatabaseFileError, restoreDatabase } from '../db/backup.ts';
import { parseCommandLine } from './arguments.ts';
import { CliError, type DatabaseFileCommand } from './command.ts';

export const databaseCommands: DatabaseFileCommand[] = [
  {
    name: 'backup',
    arguments: '<file> [--force]',
    summary:
      'write a consistent copy of the database to <file> while the service runs (SQLite online backup); --force replaces an existing file',
    database: 'file',
    async run(args, { config, print }) {
      const { values, positionals } = parseCommandLine(this.name, args, { options: { force: { type: 'boolean' } }, positionals: ['file'] });
      const target = path.resolve(positionals[0]);
      const started = Date.now();
      const info = await fileErrorsAsCliErrors(() => backupDatabase(databaseFile(config), target, { overwrite: values.force }));
      print(
        `Backed up ${config.databasePath} to ${target}: schema version ${info.schemaVersion}, ${info.bytes} bytes, in ${Date.now() - started} ms.`,
      );
      print('Keep the key fingerprint secret (KEY_FINGERPRINT_SECRET or KEY_SECRET_FILE) with it: without it no key in it works.');
      return 0;
    },
  },
  {
    name: 'restore',
    arguments: '<file>',
    summary:
      'with the service stopped (refused while any process has the database open): check <file> is a database of this service, keep the current one aside, put <file> in its place',
    database: 'file',
    async run(args, { config, print }) {
      const { positionals } = parseCommandLine(this.name, args, { options: {}, positionals: ['file'] });
      const source = path.resolve(positionals[0]);
      const { info, keptAs } = await fileErrorsAsCliErrors(async () => restoreDatabase(source, databaseFile(config)));
      print(`Restored ${source} (schema version ${info.schemaVersion}) as ${config.databasePath}.`);
      print(keptAs === undefined ? 'There was no database there before.' : `The database it replaced is kept as ${keptAs}.`);
      print('Start the service: it applies any newer migrations at start.');
      return 0;
    },
  },
];

function databaseFile({ databasePath, postgres }: Pick<Config, 'databasePath' | 'postgres'>): string {
  // The file is not the deployment's database then: a copy of it would be a stale one.
  if (postgres)
    throw new CliError('DATABASE_URL is set: the data is in PostgreSQL; back it up with pg_dump and restore it with pg_restore.');
  if (databasePath === ':memory:') throw new CliError('DATABASE_PATH is :memory:, which has no file to back up or restore.');
  return databasePath;
}

async function fileErrorsAsCliErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DatabaseFileError) throw new CliError(error.message);
    throw error;
  }
}
