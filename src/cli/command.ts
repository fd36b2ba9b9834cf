// The shape of one operator command (`npm run cli -- <name> ...`).
import type { Db } from '../db/open.ts';
import type { Config } from '../config.ts';

export interface CliContext {
  config: Readonly<Config>;
  db: Db;
  /** Lines for the operator (stdout). */
  print(line: string): void;
}

export interface CliCommand {
  name: string;
  /** One line: arguments and what it does. */
  usage: string;
  /** Returns the process exit code; throws CliError for bad input. */
  run(args: string[], context: CliContext): Promise<number> | number;
}

/** A refusal the operator can act on: printed without a stack trace, exit code 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}
