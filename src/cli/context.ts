// What the operator commands work with: the church repository and the account service over one open database.
import type { Config } from '../config.ts';
import type { Db } from '../db/open.ts';
import type { Logger } from '../http/logger.ts';
import { createSqliteAccountRepository } from '../accounts/sqlite-repository.ts';
import { createAccountService } from '../accounts/service.ts';
import { createSqliteChurchRepository } from '../church/sqlite-repository.ts';
import { createFingerprinter, loadOrCreateSecret, type Fingerprinter } from '../keys/fingerprint.ts';
import type { CliContext } from './command.ts';

/**
 * The context every command receives. The fingerprint secret is read (or created) only when a
 * command first fingerprints a key, so listing or verifying never creates a secret file.
 */
export function createCliContext(config: Readonly<Config>, db: Db, print: (line: string) => void): CliContext {
  return {
    config,
    print,
    churches: createSqliteChurchRepository(db),
    accounts: createAccountService({ repository: createSqliteAccountRepository(db), fingerprinter: lazyFingerprinter(config, print) }),
  };
}

function lazyFingerprinter(config: Readonly<Config>, print: (line: string) => void): Fingerprinter {
  let fingerprinter: Fingerprinter | undefined;
  return {
    fingerprint(key) {
      fingerprinter ??= createFingerprinter(loadOrCreateSecret(config, printingLogger(print)));
      return fingerprinter.fingerprint(key);
    },
  };
}

/** The CLI has no JSON log: the secret-creation notice goes to the operator. */
function printingLogger(print: (line: string) => void): Logger {
  const printLine = (message: string, fields?: Record<string, unknown>) =>
    print(fields && typeof fields.file === 'string' ? `${message} (${fields.file})` : message);
  return { debug: () => {}, info: printLine, warn: printLine, error: printLine };
}
