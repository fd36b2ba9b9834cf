// Operator commands for developer accounts, API keys and the reserved e-mail list.
import fs from 'node:fs';
import { createLogger, type Logger } from '../http/logger.ts';
import { createSqliteKeyRepository } from '../keys/sqlite-repository.ts';
import { createFingerprinter, loadOrCreateSecret } from '../keys/fingerprint.ts';
import { KeyRefusal, type Developer, type KeyRepository } from '../keys/repository.ts';
import { CliError, type CliCommand, type CliContext } from './command.ts';

export const keyCommands: CliCommand[] = [
  {
    name: 'create-developer',
    usage: '--email E --name N [--verified]   create a developer account (reserved addresses are refused)',
    run(args, context) {
      const options = parseOptions(args, ['email', 'name'], ['verified']);
      const developer = refusalsAsCliErrors(() =>
        repository(context).createDeveloper({ email: required(options, 'email'), name: required(options, 'name'), verified: options.flags.has('verified') }),
      );
      context.print(`Created developer ${developer.id} <${developer.email}>${developer.emailVerifiedAt ? ' (verified)' : ' (e-mail not verified yet)'}.`);
      return 0;
    },
  },
  {
    name: 'verify-developer',
    usage: '--email E   mark a developer\'s e-mail address as verified',
    run(args, context) {
      const options = parseOptions(args, ['email'], []);
      const keys = repository(context);
      const developer = keys.verifyDeveloperEmail(developerByEmail(keys, required(options, 'email')).id);
      context.print(`The address ${developer.email} is verified (since ${developer.emailVerifiedAt}).`);
      return 0;
    },
  },
  {
    name: 'create-key',
    usage: '--email E --name N   create an API key for a verified developer and print it once',
    run(args, context) {
      const options = parseOptions(args, ['email', 'name'], []);
      const keys = repository(context);
      const developer = developerByEmail(keys, required(options, 'email'));
      const fingerprinter = createFingerprinter(loadOrCreateSecret(context.config, printingLogger(context)));
      const created = refusalsAsCliErrors(() => keys.createKey(developer.id, required(options, 'name'), fingerprinter));
      context.print(`Created key ${created.record.id} "${created.record.name}" for ${developer.email}:`);
      context.print('');
      context.print(`  ${created.key}`);
      context.print('');
      context.print('This is the only time the key is shown: only its fingerprint is stored. Copy it now into the');
      context.print('server-side configuration that will use it; never put it in code a browser can see.');
      return 0;
    },
  },
  {
    name: 'list-keys',
    usage: '--email E   list a developer\'s keys (id, name, hint, created, last used, revoked)',
    run(args, context) {
      const options = parseOptions(args, ['email'], []);
      const keys = repository(context);
      const developer = developerByEmail(keys, required(options, 'email'));
      const list = keys.listKeys(developer.id);
      if (list.length === 0) {
        context.print(`${developer.email} has no keys.`);
        return 0;
      }
      context.print(['id', 'name', 'ends with', 'created', 'last used', 'revoked'].join('\t'));
      for (const key of list) {
        context.print([key.id, key.name, `…${key.hint}`, key.createdAt, key.lastUsedAt ?? 'never', key.revokedAt ?? 'active'].join('\t'));
      }
      return 0;
    },
  },
  {
    name: 'revoke-key',
    usage: '--email E --id ID   revoke one of a developer\'s keys, effective immediately',
    run(args, context) {
      const options = parseOptions(args, ['email', 'id'], []);
      const keys = repository(context);
      const developer = developerByEmail(keys, required(options, 'email'));
      const idText = required(options, 'id');
      if (!/^\d+$/.test(idText)) throw new CliError(`--id must be a key id (a whole number), got "${idText}".`);
      const record = refusalsAsCliErrors(() => keys.revokeKey(developer.id, Number(idText)));
      context.print(`Key ${record.id} "${record.name}" (…${record.hint}) is revoked since ${record.revokedAt}.`);
      return 0;
    },
  },
  {
    name: 'import-reserved-emails',
    usage: '<file>   add addresses (one per line, or a JSON array) that cannot become developer accounts; all or nothing',
    run(args, context) {
      if (args.length !== 1 || args[0].startsWith('--')) throw new CliError('Give exactly one file: import-reserved-emails <file>.');
      const emails = readEmailList(args[0]);
      const added = refusalsAsCliErrors(() => repository(context).importReservedEmails(emails));
      context.print(`Imported ${emails.length} address(es) from ${args[0]}: ${added} new, ${emails.length - added} already reserved.`);
      return 0;
    },
  },
];

interface ParsedOptions {
  values: Map<string, string>;
  flags: Set<string>;
}

/** `--name value` options and bare `--flag`s; anything else is refused. */
function parseOptions(args: string[], valueNames: string[], flagNames: string[]): ParsedOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith('--') ? args[i].slice(2) : undefined;
    if (name !== undefined && flagNames.includes(name)) {
      flags.add(name);
    } else if (name !== undefined && valueNames.includes(name)) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new CliError(`--${name} needs a value.`);
      values.set(name, value);
      i++;
    } else {
      const known = [...valueNames, ...flagNames].map((option) => `--${option}`).join(', ');
      throw new CliError(`Unexpected argument "${args[i]}"; this command takes ${known}.`);
    }
  }
  return { values, flags };
}

function required(options: ParsedOptions, name: string): string {
  const value = options.values.get(name);
  if (value === undefined) throw new CliError(`--${name} is required.`);
  return value;
}

function repository(context: CliContext): KeyRepository {
  return createSqliteKeyRepository(context.db);
}

function developerByEmail(keys: KeyRepository, email: string): Developer {
  const developer = keys.findDeveloperByEmail(email);
  if (!developer) throw new CliError(`No developer with the address ${email}.`);
  return developer;
}

function refusalsAsCliErrors<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof KeyRefusal) throw new CliError(error.message);
    throw error;
  }
}

/** One address per line (blank lines and # comments skipped), or a JSON array of strings. */
export function readEmailList(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CliError(`${file} looks like JSON but does not parse: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed) || !parsed.every((item): item is string => typeof item === 'string')) {
      throw new CliError(`${file} must be a JSON array of strings.`);
    }
    return parsed;
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The CLI has no JSON log: the secret-creation notice goes to the operator as a sentence. */
function printingLogger(context: CliContext): Logger {
  return createLogger('info', {
    write(line) {
      const { message, file } = JSON.parse(line) as { message: string; file?: string };
      context.print(file === undefined ? message : `${message} (${file})`);
    },
  });
}
