// A backup killed midway, for the backup tests: copies <source> towards <target> and stops for good between the copy and the rename.
// Prints "copied <temporary file>" once SQLite has written the whole copy; the test then kills it with SIGKILL.
import Database from '../../build/contract/sqlite-driver.ts';
import { backupDatabase } from '../../src/db/backup.ts';

const [source, target] = process.argv.slice(2);
const copy = Database.prototype.backup;
Database.prototype.backup = async function (this: Database.Database, file: string, options?: Parameters<typeof copy>[1]) {
  const result = await copy.call(this, file, options);
  process.stdout.write(`copied ${file}\n`);
  // What a kill at this moment leaves behind is the subject: never go on.
  await new Promise(() => undefined);
  return result;
};
await backupDatabase(source, target);
