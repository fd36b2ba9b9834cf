// Test helper: a working API key for the app under test (a verified developer is created when needed).
import type { AppServices } from '../../src/app-services.ts';

export interface TestKeyOptions {
  /** The developer's address; default a new developer per call, so the 5-key limit never gets in the way. */
  email?: string;
  /** The key's name; default "test key N". */
  name?: string;
}

let created = 0;

/** Creates a key for a verified developer (made on first use) and returns the full key. */
export function createTestKey(services: Pick<AppServices, 'keys' | 'fingerprinter'>, options: TestKeyOptions = {}): string {
  created += 1;
  const email = options.email ?? `test-developer-${created}@example.org`;
  const developer =
    services.keys.findDeveloperByEmail(email) ?? services.keys.createDeveloper({ name: 'Test developer', email, verified: true });
  const verified = developer.emailVerifiedAt === null ? services.keys.verifyDeveloperEmail(developer.id) : developer;
  return services.keys.createKey(verified.id, options.name ?? `test key ${created}`, services.fingerprinter).key;
}
