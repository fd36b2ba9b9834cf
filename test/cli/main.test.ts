// The CLI's entry point: help lists every command, one command's help, exit codes, and refusals as one "Error:" line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands, runCli } from '../../src/cli/main.ts';

let dir: string;
let out: string[];
let errors: string[];
const cli = (...argv: string[]) =>
  runCli(
    argv,
    (line) => out.push(line),
    (line) => errors.push(line),
    {
      DATABASE_PATH: path.join(dir, 'church.sqlite'),
      KEY_SECRET_FILE: path.join(dir, 'key.secret'),
    },
  );

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-cli-'));
  out = [];
  errors = [];
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the operator CLI', () => {
  it('lists every command with its arguments on help, and opens no database for it', async () => {
    expect(await cli('help')).toBe(0);
    const listing = out.join('\n');
    for (const name of [
      'import-churches',
      'counts',
      'create-developer',
      'verify-developer',
      'list-developers',
      'delete-developer',
      'create-key',
      'list-keys',
      'revoke-key',
      'import-reserved-emails',
      'backup',
      'restore',
      'copy-to-postgres',
    ]) {
      expect(listing).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect(commands).toHaveLength(13);
    expect(listing).toContain('delete-developer --email E');
    expect(fs.existsSync(path.join(dir, 'church.sqlite'))).toBe(false);
  });

  it("shows one command's usage with --help", async () => {
    expect(await cli('revoke-key', '--help')).toBe(0);
    expect(out).toEqual([
      'Usage: npm run cli -- revoke-key --email E --id ID',
      "  revoke one of a developer's keys, effective immediately",
    ]);
  });

  it('names the CLI as it was invoked in its usage lines (the binary is `church-api cli`)', async () => {
    const code = await runCli(
      ['help'],
      (line) => out.push(line),
      (line) => errors.push(line),
      {},
      'church-api cli',
    );
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^Usage: church-api cli <command> \[arguments\]/);
    expect(out.join('\n')).not.toContain('npm run');
  });

  it('answers an unknown command with exit code 2 and the list', async () => {
    expect(await cli('make-coffee')).toBe(2);
    expect(errors[0]).toMatch(/^Unknown command: make-coffee/);
    expect(out.join('\n')).toContain('create-key');
  });

  it('prints a refusal as one "Error:" line with exit code 1, and a success with 0', async () => {
    expect(await cli('create-developer', '--email', 'ana@example.org')).toBe(1);
    expect(errors).toEqual(['Error: --name is required (create-developer takes --email --name --verified).']);
    expect(await cli('create-developer', '--email', 'ana@example.org', '--name', 'Ana', '--verified')).toBe(0);
    expect(await cli('list-developers')).toBe(0);
    expect(out.at(-1)).toMatch(/^\d+\tana@example.org\tAna\t/);
  });
});
