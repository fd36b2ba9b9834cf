// A second process for the write-lock test: takes SQLite's write lock on a database file and holds it.
// Arguments: <database file> <milliseconds>. Prints "locked" once it holds the lock, commits after the time, exits.
import Database from '../../build/contract/sqlite-driver.ts';

const [file, milliseconds] = process.argv.slice(2);
const db = new Database(file);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
// Busy-waiting is not needed: the lock is held by the open transaction while the timer runs.
setTimeout(() => {
  db.exec('COMMIT');
  db.close();
}, Number(milliseconds));
