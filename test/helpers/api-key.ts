// Test helper: a working API key for the app under test (a verified developer is created when needed), made through the account service.

import type { AccountRepository } from '../../src/accounts/repository.ts';
import { createAccountService } from '../../src/accounts/service.ts';
import type { Fingerprinter } from '../../src/keys/fingerprint.ts';

export interface TestKeyOptions {
  /** The developer's address; default a new developer per call, so the 5-key limit never gets in the way. */
  email?: string;
  /** The key's name; default "test key N". */
  name?: string;
}

let created = 0;

/** Creates a key for a verified developer (made on first use) and returns the full key. */
export async function createTestKey(
  services: { accountRepository: AccountRepository; fingerprinter: Fingerprinter },
  options: TestKeyOptions = {},
): Promise<string> {
  created += 1;
  const accounts = createAccountService({ repository: services.accountRepository, fingerprinter: services.fingerprinter });
  const email = options.email ?? `test-developer-${created}@example.org`;
  const developer =
    (await accounts.developerByEmail(email)) ?? (await accounts.createDeveloper({ name: 'Test developer', email, verified: true }));
  const verified = developer.emailVerifiedAt === null ? await accounts.verifyEmail(developer.id) : developer;
  return (await accounts.createKey(verified.id, options.name ?? `test key ${created}`)).key;
}
