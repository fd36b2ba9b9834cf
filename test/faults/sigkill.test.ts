// SIGKILL during a church import and during key creation: after a restart the database holds the old or the new state, and every issued key works.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
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

/** Resolves with the first line the child prints to stdout that matches `pattern`; rejects if it exits first. */
function printedLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((candidate) => pattern.test(candidate));
      if (line === undefined) return;
      child.stdout!.off('data', onData);
      resolve(line);
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before printing ${pattern}: ${buffered}`)));
  });
}

/**
 * Stops the child (SIGSTOP, then waits until /proc says it is stopped) and tells whether it holds
 * the write lock of the WAL database at `file` while stopped, that is whether it is inside a write
 * transaction: another connection's BEGIN IMMEDIATE fails at once with SQLITE_BUSY only then.
 */
async function stoppedInsideWriteTransaction(child: ChildProcess, file: string): Promise<boolean> {
  child.kill('SIGSTOP');
  for (;;) {
    const state = processState(child.pid!);
    if (state === 'T') break;
    if (state === undefined || state === 'Z') return false; // it ended before the stop: not inside anything
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const probe = new Database(file, { timeout: 0 });
  try {
    probe.exec('BEGIN IMMEDIATE');
    probe.exec('ROLLBACK');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    probe.close();
  }
}

/** The one-letter state of a process (R running, S sleeping, T stopped, Z ended, …) from /proc/<pid>/stat; undefined once it is gone. */
function processState(pid: number): string | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const afterName = stat.lastIndexOf(')') + 2;
  return stat.slice(afterName, afterName + 1);
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
  it('leaves the old or the new data, never a mix, even when killed inside the transaction, and the service starts on it', async () => {
    const document = bigDocument();
    const old = await stateOf(await demoDatabase('reference-old.sqlite'));

    // A complete import first: the "new state", and how long the import takes from the line it
    // prints once the document is valid (when its one transaction begins) to its exit.
    const reference = await demoDatabase('reference-new.sqlite');
    const complete = run(['scripts/cli.ts', 'import-churches', document], { DATABASE_PATH: reference });
    await printedLine(complete.child, / is valid: importing 60 church\(es\) in one transaction\.$/);
    const writingStarted = performance.now();
    expect(await complete.exited).toBe(0);
    const writingMs = performance.now() - writingStarted;
    const imported = await stateOf(reference);
    expect(imported.counts).not.toEqual(old.counts);

    // Each round stops the import some way into its writing, and kills it there. A round counts as
    // inside the transaction only when it is proven: the process stopped (SIGSTOP, its state read
    // from /proc) while it holds the database's write lock. How far into the writing a stop lands
    // depends on the machine, so rounds go on until three are proven inside (at most twelve).
    const outcomes: string[] = [];
    const fractions = [0.3, 0.5, 0.7];
    for (let round = 0; round < 12 && outcomes.filter((outcome) => outcome === 'old, killed inside').length < 3; round++) {
      const fraction = fractions[round % fractions.length];
      const file = await demoDatabase(`killed-${round}.sqlite`);
      const killed = run(['scripts/cli.ts', 'import-churches', document], { DATABASE_PATH: file });
      await printedLine(killed.child, / is valid: importing/);
      await new Promise((resolve) => setTimeout(resolve, writingMs * fraction));
      const inside = await stoppedInsideWriteTransaction(killed.child, file);
      killed.child.kill('SIGKILL');
      await killed.exited;
      const state = await stateOf(file);
      const where = `round ${round} (${fraction} of ${writingMs.toFixed(0)} ms, ${inside ? 'inside' : 'outside'} the transaction)`;
      expect(state.integrity, where).toBe('ok');
      const isOld = JSON.stringify(state.counts) === JSON.stringify(old.counts);
      const isNew = JSON.stringify(state.counts) === JSON.stringify(imported.counts);
      // Never a mix: the old state or the new one. The write lock is also held while the commit
      // itself is written, so a stop that lands there leaves the new state (the commit completed in
      // the WAL); only a stop that holds the lock and leaves the old state proves a kill inside.
      expect(isOld || isNew, `${where}: ${JSON.stringify(state.counts)}`).toBe(true);
      outcomes.push(inside ? (isOld ? 'old, killed inside' : 'new, killed in its commit') : isOld ? 'old' : 'new');

      // The service starts on the database left behind and answers.
      const app = await startTestServer({ DATABASE_PATH: file, KEY_FINGERPRINT_SECRET: SECRET, DEMO_DATA: 'false' });
      try {
        expect((await getWithKey(app.url + CHURCH, await createTestKey(app.services))).status).toBe(200);
      } finally {
        await app.close();
      }
    }
    console.log(`import killed ${outcomes.length} times: ${outcomes.join('; ')}`);
    expect(outcomes.filter((outcome) => outcome === 'old, killed inside').length, outcomes.join('; ')).toBe(3);
  }, 180_000);
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
