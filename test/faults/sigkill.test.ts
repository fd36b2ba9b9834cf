// SIGKILL during a church import and during key creation: after a restart the database holds the old or the new state, and every issued key works.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoDataIfEmpty } from '../../src/church/demo-data.ts';
import { createSqliteChurchRepository } from '../../src/church/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer } from '../helpers/test-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const SECRET = 'k'.repeat(64);
const CHURCH = '/api/public/v1/churches/grace-paris';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-sigkill-'));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `node --import tsx <args>` in the repository; resolves with the child and a promise of its exit. */
function run(args: string[], env: Record<string, string> = {}): { child: ChildProcess; exited: Promise<NodeJS.Signals | number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)));
  return { child, exited };
}

/** A database holding the demo churches: the "old state" of the import test. */
async function demoDatabase(name: string): Promise<string> {
  const file = path.join(dir, name);
  const db = openDatabase(file);
  await loadDemoDataIfEmpty(createSqliteChurchRepository(db), new Date());
  db.close();
  return file;
}

async function stateOf(file: string): Promise<{ integrity: string; counts: Record<string, number> }> {
  const db = openDatabase(file);
  try {
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    return { integrity, counts: { ...(await createSqliteChurchRepository(db).counts()) } };
  } finally {
    db.close();
  }
}

/** A document large enough that its import takes a while: churches with many posts, replacing one demo church too. */
function bigDocument(): string {
  const churches = Array.from({ length: 60 }, (_, c) => ({
    slug: c === 0 ? 'grace-paris' : `killed-church-${c}`,
    name: `Church ${c}`,
    city: 'Testville',
    country: 'FR',
    language: 'fr',
    timeZone: 'Europe/Paris',
    isPublic: true,
    posts: Array.from({ length: 200 }, (_, p) => ({
      slug: `post-${p}`,
      title: `Post ${p}`,
      body: 'Lorem ipsum dolor sit amet. '.repeat(20),
      publishedAt: '2026-01-31T09:00:00Z',
      isPublic: true,
    })),
  }));
  const file = path.join(dir, 'big.json');
  fs.writeFileSync(file, JSON.stringify({ churches }));
  return file;
}

describe('SIGKILL during a church import', () => {
  it('leaves the old or the new data, never a mix, and the service starts on it', async () => {
    const document = bigDocument();
    const old = await stateOf(await demoDatabase('reference-old.sqlite'));

    // A complete import first: the "new state", and how long the whole command takes.
    const reference = await demoDatabase('reference-new.sqlite');
    const started = Date.now();
    const complete = run(['scripts/cli.ts', 'import-churches', document], { DATABASE_PATH: reference });
    expect(await complete.exited).toBe(0);
    const duration = Date.now() - started;
    const imported = await stateOf(reference);
    expect(imported.counts).not.toEqual(old.counts);

    // Kills spread over the second half of the command's run, where the import transaction is.
    const outcomes: string[] = [];
    for (const fraction of [0.5, 0.65, 0.8, 0.9, 0.97]) {
      const file = await demoDatabase(`killed-${fraction}.sqlite`);
      const killed = run(['scripts/cli.ts', 'import-churches', document], { DATABASE_PATH: file });
      await new Promise((resolve) => setTimeout(resolve, duration * fraction));
      killed.child.kill('SIGKILL');
      await killed.exited;
      const state = await stateOf(file);
      expect(state.integrity, `killed at ${fraction}`).toBe('ok');
      const isOld = JSON.stringify(state.counts) === JSON.stringify(old.counts);
      const isNew = JSON.stringify(state.counts) === JSON.stringify(imported.counts);
      expect(isOld || isNew, `killed at ${fraction}: ${JSON.stringify(state.counts)}`).toBe(true);
      outcomes.push(isOld ? 'old' : 'new');

      // The service starts on the database left behind and answers.
      const app = await startTestServer({ DATABASE_PATH: file, KEY_FINGERPRINT_SECRET: SECRET, DEMO_DATA: 'false' });
      try {
        expect((await getWithKey(app.url + CHURCH, await createTestKey(app.services))).status).toBe(200);
      } finally {
        await app.close();
      }
    }
    // Which rounds hit the transaction depends on the machine; every one must be old or new (checked above).
    expect(outcomes).toHaveLength(5);
  }, 120_000);
});

describe('SIGKILL during key creation', () => {
  it('keeps every key that was handed out working after a restart', async () => {
    const file = await demoDatabase('keys.sqlite');
    const issued: string[] = [];
    for (const killAfter of [3, 11, 25]) {
      const creator = run(['test/faults/issue-keys-process.ts', file, SECRET]);
      let buffered = '';
      let count = 0;
      await new Promise<void>((resolve) => {
        creator.child.stdout!.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          issued.push(...lines);
          count += lines.length;
          // Killed right after a key was read: the next one is being created.
          if (count >= killAfter) {
            creator.child.kill('SIGKILL');
            resolve();
          }
        });
        creator.exited.then(() => resolve());
      });
      expect(await creator.exited).toBe('SIGKILL');
    }
    expect(issued.length).toBeGreaterThanOrEqual(3 + 11 + 25);

    const { integrity } = await stateOf(file);
    expect(integrity).toBe('ok');
    const app = await startTestServer({ DATABASE_PATH: file, KEY_FINGERPRINT_SECRET: SECRET, KEY_RATE_LIMIT_PER_MINUTE: '1000' });
    try {
      for (const key of issued) expect((await getWithKey(app.url + CHURCH, key)).status, key.slice(0, 12)).toBe(200);
    } finally {
      await app.close();
    }
  }, 120_000);
});
