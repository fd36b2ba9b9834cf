// A second process for the SIGKILL test: issues API keys through the account service, one per line on stdout, until it is killed.
// Arguments: <database file> <fingerprint secret>. A key is printed only after createKey returned (its transaction committed).
import { createAccountService, MAX_ACTIVE_KEYS } from '../../src/accounts/service.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';

const [file, secret] = process.argv.slice(2);
const accounts = createAccountService({
  repository: createSqliteAccountRepository(openDatabase(file)),
  fingerprinter: createFingerprinter(secret),
});
for (let n = 0; ; n++) {
  const email = `killed-${process.pid}-${Math.floor(n / MAX_ACTIVE_KEYS)}@example.org`;
  const developer = (await accounts.developerByEmail(email)) ?? (await accounts.createDeveloper({ name: 'Killed', email, verified: true }));
  const { key } = await accounts.createKey(developer.id, `key ${n}`);
  process.stdout.write(`${key}\n`);
}
