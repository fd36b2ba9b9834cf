// The shape of one operator command (`npm run cli -- <name> ...`) and what it is given to work with.

import type { AccountService } from '../accounts/service.ts';
import type { ChurchRepository } from '../church/repository.ts';
import type { Config } from '../config.ts';

export interface CliContext {
  config: Readonly<Config>;
  /** The account rules (the same service the portal uses); the CLI never writes accounts or keys another way. */
  accounts: AccountService;
  churches: ChurchRepository;
  /** Lines for the operator (stdout). */
  print(line: string): void;
}

export interface CliCommand {
  name: string;
  /** Its arguments as the help shows them: `--email E --name N [--verified]`. */
  arguments: string;
  /** What it does, in one line. */
  summary: string;
  /** Returns the process exit code; throws CliError for bad input or a refusal. */
  run(args: string[], context: CliContext): Promise<number>;
}

/**
 * A command on the database file itself (backup, restore): it is given no open database, since
 * opening one would apply migrations, and a restore replaces the file.
 */
export interface DatabaseFileCommand extends Omit<CliCommand, 'run'> {
  database: 'file';
  run(args: string[], context: Pick<CliContext, 'config' | 'print'>): Promise<number>;
}

/** A refusal the operator can act on: printed without a stack trace, exit code 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}
