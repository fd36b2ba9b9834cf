// A second process for the cross-process key-limit test: creates keys through the service once the test says go.
// Arguments: <database file> <developer ids, comma-separated> <attempts per developer>. Prints "ready", waits for a
// line on stdin (sent to both processes at once), then prints { created, refused } as JSON.

import { AccountRefusal } from '../../src/accounts/refusal.ts';
import { createAccountService } from '../../src/accounts/service.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';

const [file, developerIds, attempts] = process.argv.slice(2);
const db = openDatabase(file);
const accounts = createAccountService({
  repository: createSqliteAccountRepository(db),
  fingerprinter: createFingerprinter('f'.repeat(64)),
});
// Everything is loaded and the database open before "ready": both processes then start within a moment of each other.
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
let created = 0;
let refused = 0;
// Both processes walk the developers in the same order, so they race for every developer's last places.
for (const developerId of developerIds.split(',').map(Number)) {
  for (let i = 0; i < Number(attempts); i++) {
    try {
      await accounts.createKey(developerId, `process ${process.pid} key ${i}`);
      created += 1;
    } catch (error) {
      if (!(error instanceof AccountRefusal) || error.code !== 'key-limit') throw error;
      refused += 1;
    }
  }
}
db.close();
process.stdout.write(`${JSON.stringify({ created, refused })}\n`);
