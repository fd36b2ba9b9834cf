// Waiting for a SQLite lock on timers: retried while another connection writes, StorageUnavailableError past the budget, other errors at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isLockBusy, retryWhileLocked, waitingForLocks } from '../../src/db/lock-wait.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { StorageUnavailableError } from '../../src/db/storage-unavailable.ts';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

const opened: Db[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Two connections to one new database file, the first as the service opens it (busy timeout 0). */
function twoConnections(): [Db, Db] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-lock-'));
  folders.push(dir);
  const file = path.join(dir, 'church.sqlite');
  const service = openDatabase(file);
  service.pragma('busy_timeout = 0');
  const other = openDatabase(file);
  opened.push(service, other);
  return [service, other];
}

describe('waiting for a lock', () => {
  it('knows SQLITE_BUSY and its extended codes, and nothing else', () => {
    expect(isLockBusy(busy())).toBe(true);
    expect(isLockBusy({ code: 'SQLITE_BUSY_SNAPSHOT' })).toBe(true);
    expect(isLockBusy({ code: 'SQLITE_CORRUPT' })).toBe(false);
    expect(isLockBusy(new Error('database is locked'))).toBe(false);
    expect(isLockBusy(undefined)).toBe(false);
  });

  it('runs the work again until it goes through', async () => {
    let calls = 0;
    const result = await retryWhileLocked(() => {
      calls += 1;
      if (calls < 4) throw busy();
      return 'done';
    }, 1_000);
    expect([result, calls]).toEqual(['done', 4]);
  });

  it('gives up past its budget with StorageUnavailableError: 503 database-unavailable with Retry-After', async () => {
    let calls = 0;
    const started = performance.now();
    const error = await retryWhileLocked(() => {
      calls += 1;
      throw busy();
    }, 100).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeGreaterThanOrEqual(99);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as StorageUnavailableError).problem).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    // 1, 2, 4 … 50 ms apart: a handful of attempts in 100 ms, not a busy loop.
    expect(calls).toBeGreaterThan(3);
    expect(calls).toBeLessThan(20);
  });

  it('passes any other error on at once', async () => {
    let calls = 0;
    const corrupt = Object.assign(new Error('malformed'), { code: 'SQLITE_CORRUPT' });
    await expect(
      retryWhileLocked(() => {
        calls += 1;
        throw corrupt;
      }, 1_000),
    ).rejects.toBe(corrupt);
    expect(calls).toBe(1);
  });

  it('wraps the asynchronous methods of a repository and leaves the others alone', async () => {
    let calls = 0;
    const repository = {
      name: 'accounts',
      async write(value: number) {
        calls += 1;
        if (calls < 3) throw busy();
        return value * 2;
      },
      count: () => calls,
    };
    const waiting = waitingForLocks(repository, 1_000);
    expect(waiting.name).toBe('accounts');
    expect(await waiting.write(21)).toBe(42);
    expect(waiting.count()).toBe(3);
  });

  it('writes once another connection commits, within the budget, and fails after it while the lock stays', async () => {
    const [service, other] = twoConnections();
    service.exec('CREATE TABLE notes (text TEXT)');
    const insert = service.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    const repository = waitingForLocks({ add: async (text: string) => insert.run(text).changes }, 2_000);

    other.exec('BEGIN IMMEDIATE');
    const writing = repository.add('after the commit');
    // Whether the write waits on the event loop shows here: this timer only runs if it does not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    other.exec('COMMIT');
    expect(await writing).toBe(1);

    other.exec('BEGIN IMMEDIATE');
    const short = waitingForLocks({ add: async (text: string) => insert.run(text).changes }, 100);
    await expect(short.add('never')).rejects.toBeInstanceOf(StorageUnavailableError);
    other.exec('COMMIT');
    expect(service.prepare('SELECT text FROM notes').pluck().all()).toEqual(['after the commit']);
  });
});
