// What the operator commands work with: the church repository and the account service over one open storage (SQLite or PostgreSQL).

import { createAccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { createLogger, type Logger } from '../http/logger.ts';
import { createFingerprinter, type Fingerprinter, loadOrCreateSecret } from '../keys/fingerprint.ts';
import type { Storage } from '../storage.ts';
import type { CliContext } from './command.ts';

/**
 * The context every command receives. The fingerprint secret is read (or created) only when a
 * command first fingerprints a key, so listing or verifying never creates a secret file.
 */
export function createCliContext(
  config: Readonly<Config>,
  storage: Pick<Storage, 'churches' | 'accounts'>,
  print: (line: string) => void,
): CliContext {
  return {
    config,
    print,
    churches: storage.churches,
    accounts: createAccountService({
      repository: storage.accounts,
      fingerprinter: lazyFingerprinter(config, print),
      reservedMatching: config.reservedEmailMatching,
    }),
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

/** The CLI has no JSON log: the secret-creation notice goes to the operator as a sentence. */
function printingLogger(print: (line: string) => void): Logger {
  return createLogger('info', {
    write(line: string) {
      const { message, file } = JSON.parse(line) as { message: string; file?: string };
      print(file === undefined ? message : `${message} (${file})`);
    },
  });
}
