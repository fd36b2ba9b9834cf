// A bad setting stops `npm start` with exit code 1 and one line on stderr naming the variable, before any file is written.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const entry = path.join(root, 'src', 'server.ts');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the working folder holds afterwards. */
  files: string[];
}

const folders: string[] = [];

/**
 * Runs the service in a new empty working folder (where its default files would go) with `env`;
 * `prepare` may put files there first, and they are left out of `files`.
 */
async function start(env: Record<string, string>, prepare?: (dir: string) => void): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-bad-setting-'));
  folders.push(dir);
  prepare?.(dir);
  const before = new Set(fs.readdirSync(dir));
  const resolved = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replaceAll('<dir>', dir)]));
  const child = spawn(tsx, [entry], {
    cwd: dir,
    env: { PATH: process.env.PATH, PORT: '0', ...resolved },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return {
    code,
    stdout,
    stderr,
    files: fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((file) => !before.has(file)),
  };
}

function expectOneLineNaming(outcome: Outcome, variable: string, detail?: RegExp): void {
  expect(outcome.code, outcome.stderr).toBe(1);
  const lines = outcome.stderr.trimEnd().split('\n');
  expect(lines, outcome.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`${variable}:`);
  expect(lines[0]).not.toMatch(/\bat .+:\d+:\d+/);
  if (detail) expect(lines[0]).toMatch(detail);
  expect(outcome.stdout).toBe('');
  expect(outcome.files, 'files written before the refusal').toEqual([]);
}

let closedPort: number;

beforeAll(async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('a bad setting ends the start with one line naming it, and no file written', () => {
  it.each([
    ['TRUST_PROXY', 'true', /every hop/],
    ['TRUST_PROXY', '*', /every hop/],
    ['TRUST_PROXY', 'proxy.example.org', /hop count|addresses/],
    ['KEY_FINGERPRINT_SECRET', 'too-short', /32 characters/],
    ['LOG_LEVEL', 'loud', /silent/],
    ['REDIS_URL', 'http://127.0.0.1:6379', /redis:\/\//],
    ['SMTP_URL', 'nope', /is not a URL; expected smtp:\/\//],
    ['HOST', '0.0.0.0:3000', /the port goes in PORT/],
  ])('%s=%s', async (variable, value, detail) => {
    expectOneLineNaming(await start({ [variable]: value }), variable, detail);
  });

  it('REDIS_URL of a Redis nobody answers at', async () => {
    expectOneLineNaming(await start({ REDIS_URL: `redis://127.0.0.1:${closedPort}` }), 'REDIS_URL', /cannot connect/);
  });

  it('DATABASE_PATH under a file, where no folder can be made', async () => {
    const outcome = await start({ DATABASE_PATH: '<dir>/a-file/church.sqlite' }, (dir) => fs.writeFileSync(path.join(dir, 'a-file'), 'x'));
    expectOneLineNaming(outcome, 'DATABASE_PATH', /a-file/);
  });

  it('DATABASE_PATH naming a file that is not a SQLite database', async () => {
    const outcome = await start({ DATABASE_PATH: '<dir>/notes.txt' }, (dir) =>
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a database at all'),
    );
    expectOneLineNaming(outcome, 'DATABASE_PATH', /not a SQLite database/);
  });

  it('KEY_SECRET_FILE under a file, where no folder can be made', async () => {
    const outcome = await start({ KEY_SECRET_FILE: '<dir>/a-file/key.secret' }, (dir) => fs.writeFileSync(path.join(dir, 'a-file'), 'x'));
    expectOneLineNaming(outcome, 'KEY_SECRET_FILE', /a-file/);
  });

  it('MAIL_OUTBOX_DIR under a file, where no folder can be made (without SMTP_URL, where e-mail goes)', async () => {
    const outcome = await start({ MAIL_OUTBOX_DIR: '<dir>/a-file/outbox' }, (dir) => fs.writeFileSync(path.join(dir, 'a-file'), 'x'));
    expectOneLineNaming(outcome, 'MAIL_OUTBOX_DIR', /a-file/);
  });

  it('BIBLE_DB_PATH naming a folder', async () => {
    const outcome = await start({ BIBLE_DB_PATH: '<dir>/bible' }, (dir) => fs.mkdirSync(path.join(dir, 'bible')));
    expectOneLineNaming(outcome, 'BIBLE_DB_PATH', /is not a file/);
  });

  it('KEY_SECRET_FILE holding a secret too short to be one', async () => {
    const outcome = await start({ KEY_SECRET_FILE: '<dir>/key.secret' }, (dir) =>
      fs.writeFileSync(path.join(dir, 'key.secret'), 'short\n'),
    );
    expectOneLineNaming(outcome, 'KEY_SECRET_FILE', /shorter than 32/);
  });
});

// One after the other, after the block above: each start is a tsx process, and more of them at once than that block
// starts would crowd a small machine past the 30 s each is given. (Malformed DATABASE_* values: test/config.test.ts.)
describe('a PostgreSQL that cannot be used ends the start with one line naming DATABASE_URL, and no file written', () => {
  it('DATABASE_URL of a PostgreSQL nobody answers at, without its password in the line', async () => {
    const outcome = await start({ DATABASE_URL: `postgres://api:s3cret-Pa55@127.0.0.1:${closedPort}/church` });
    expectOneLineNaming(
      outcome,
      'DATABASE_URL',
      new RegExp(`cannot use PostgreSQL at 127\\.0\\.0\\.1:${closedPort}/church .*ECONNREFUSED`),
    );
    expect(outcome.stderr).not.toContain('s3cret-Pa55');
  });

  it('DATABASE_URL of a server that accepts connections but never answers: refused within the connect timeout', async () => {
    // Not a PostgreSQL server: it takes the connection and says nothing, as a hung host behind a live port does.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const outcome = await start({ DATABASE_URL: `postgres://api@127.0.0.1:${port}/church`, DATABASE_CONNECT_TIMEOUT_MS: '500' });
      expectOneLineNaming(outcome, 'DATABASE_URL', /timeout/i);
    } finally {
      silent.close();
    }
  });
});
