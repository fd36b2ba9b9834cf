// A second process for the write-lock test: takes SQLite's write lock on a database file and holds it.
// Argument: <database file>. Prints "locked" once it holds the lock; commits and exits when its stdin ends.
import Database from '../../build/contract/sqlite-driver.ts';

const [file] = process.argv.slice(2);
const db = new Database(file);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
// The open transaction holds the lock for as long as the test keeps this process's stdin open.
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('COMMIT');
  db.close();
  process.exit(0);
});
