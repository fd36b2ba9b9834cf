// Operator commands for developer accounts, API keys and the reserved e-mail list, on top of the account service.
import { AccountRefusal } from '../accounts/refusal.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Developer } from '../accounts/types.ts';
import { parseCommandLine } from './arguments.ts';
import { type CliCommand, CliError } from './command.ts';
import { readEmailList } from './email-list.ts';

const email = { type: 'string', required: true } as const;
const name = { type: 'string', required: true } as const;

export const accountCommands: CliCommand[] = [
  {
    name: 'create-developer',
    arguments: '--email E --name N [--verified]',
    summary: 'create a developer account (reserved addresses are refused)',
    async run(args, { accounts, print }) {
      const { values } = parseCommandLine(this.name, args, { options: { email, name, verified: { type: 'boolean' } } });
      const developer = await refusalsAsCliErrors(
        accounts.createDeveloper({ email: values.email, name: values.name, verified: values.verified }),
      );
      print(
        `Created developer ${developer.id} <${developer.email}>${developer.emailVerifiedAt ? ' (verified)' : ' (e-mail not verified yet)'}.`,
      );
      return 0;
    },
  },
  {
    name: 'verify-developer',
    arguments: '--email E',
    summary: "mark a developer's e-mail address as verified",
    async run(args, { accounts, print }) {
      const { values } = parseCommandLine(this.name, args, { options: { email } });
      const developer = await refusalsAsCliErrors(accounts.verifyEmail((await developerByEmail(accounts, values.email)).id));
      print(`The address ${developer.email} is verified (since ${developer.emailVerifiedAt}).`);
      return 0;
    },
  },
  {
    name: 'list-developers',
    arguments: '',
    summary: 'list developer accounts (id, e-mail, name, verified, created, active keys)',
    async run(args, { accounts, print }) {
      parseCommandLine(this.name, args, { options: {} });
      const developers = await accounts.listDevelopers();
      if (developers.length === 0) {
        print('There are no developer accounts.');
        return 0;
      }
      print(['id', 'e-mail', 'name', 'verified', 'created', 'active keys'].join('\t'));
      for (const developer of developers) {
        print(
          [
            developer.id,
            developer.email,
            developer.name,
            developer.emailVerifiedAt ?? 'no',
            developer.createdAt,
            developer.activeKeys,
          ].join('\t'),
        );
      }
      return 0;
    },
  },
  {
    name: 'delete-developer',
    arguments: '--email E',
    summary: 'delete a developer account; its keys stop working at once',
    async run(args, { accounts, print }) {
      const { values } = parseCommandLine(this.name, args, { options: { email } });
      const { developer, revokedKeys } = await refusalsAsCliErrors(
        accounts.deleteDeveloper((await developerByEmail(accounts, values.email)).id),
      );
      print(`Deleted developer ${developer.id} <${developer.email}> and their keys (${revokedKeys} active key(s) revoked).`);
      return 0;
    },
  },
  {
    name: 'create-key',
    arguments: '--email E --name N',
    summary: 'create an API key for a verified developer and print it once',
    async run(args, { accounts, print }) {
      const { values } = parseCommandLine(this.name, args, { options: { email, name } });
      const developer = await developerByEmail(accounts, values.email);
      const created = await refusalsAsCliErrors(accounts.createKey(developer.id, values.name));
      print(`Created key ${created.record.id} "${created.record.name}" for ${developer.email}:`);
      print('');
      print(`  ${created.key}`);
      print('');
      print('This is the only time the key is shown: only its fingerprint is stored. Copy it now into the');
      print('server-side configuration that will use it; never put it in code a browser can see.');
      return 0;
    },
  },
  {
    name: 'list-keys',
    arguments: '--email E',
    summary: "list a developer's keys (id, name, hint, created, last used, revoked)",
    async run(args, { accounts, print }) {
      const { values } = parseCommandLine(this.name, args, { options: { email } });
      const developer = await developerByEmail(accounts, values.email);
      const keys = await accounts.listKeys(developer.id);
      if (keys.length === 0) {
        print(`${developer.email} has no keys.`);
        return 0;
      }
      print(['id', 'name', 'ends with', 'created', 'last used', 'revoked'].join('\t'));
      for (const key of keys) {
        print([key.id, key.name, `…${key.hint}`, key.createdAt, key.lastUsedAt ?? 'never', key.revokedAt ?? 'active'].join('\t'));
      }
      return 0;
    },
  },
  {
    name: 'revoke-key',
    arguments: '--email E --id ID',
    summary: "revoke one of a developer's keys, effective immediately",
    async run(args, { accounts, print }) {
      const { values } = parseCommandLine(this.name, args, { options: { email, id: { type: 'string', required: true } } });
      if (!/^\d+$/.test(values.id)) throw new CliError(`--id must be a key id (a whole number), got "${values.id}".`);
      const developer = await developerByEmail(accounts, values.email);
      const record = await refusalsAsCliErrors(accounts.revokeKey(developer.id, Number(values.id)));
      print(`Key ${record.id} "${record.name}" (…${record.hint}) is revoked since ${record.revokedAt}.`);
      return 0;
    },
  },
  {
    name: 'import-reserved-emails',
    arguments: '<file>',
    summary: 'add addresses (one per line, or a JSON array) that cannot become developer accounts; all or nothing',
    async run(args, { accounts, print }) {
      const {
        positionals: [file],
      } = parseCommandLine(this.name, args, { options: {}, positionals: ['file'] });
      const emails = readEmailList(file);
      const added = await refusalsAsCliErrors(accounts.importReservedEmails(emails));
      print(`Imported ${emails.length} address(es) from ${file}: ${added} new, ${emails.length - added} already reserved.`);
      return 0;
    },
  },
];

async function developerByEmail(accounts: AccountService, address: string): Promise<Developer> {
  const developer = await accounts.developerByEmail(address);
  if (!developer) throw new CliError(`No developer with the address ${address}.`);
  return developer;
}

/** The service's refusals are the operator's errors: printed as one line, exit code 1. */
async function refusalsAsCliErrors<T>(action: Promise<T>): Promise<T> {
  try {
    return await action;
  } catch (error) {
    if (error instanceof AccountRefusal) throw new CliError(error.message);
    throw error;
  }
}
