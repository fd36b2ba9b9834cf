// Another process holding the church database's write lock must not stall or fail keyed requests ("last used" is bookkeeping).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const LOCK_MS = 8_000;

/** Starts lock-holder-process.ts on `file`; resolves once it holds the lock, with a promise of its exit. */
async function holdWriteLock(file: string, milliseconds: number): Promise<{ exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/faults/lock-holder-process.ts', file, String(milliseconds)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    exited.then((code) => reject(new Error(`lock holder exited with ${code} before locking: ${stderr}`)));
  });
  return { exited };
}

describe('with the church database write-locked by another process', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer();
  });
  afterAll(() => app.close());

  it(`answers keyed requests within 100 ms while the lock is held for ${LOCK_MS / 1000} s, and records "last used" once it is released`, async () => {
    const email = 'locked-out@example.org';
    const key = await createTestKey(app.services, { email });
    const developer = (await app.services.accountRepository.developerByEmail(email))!;
    // A first request with another key, so that nothing measured below is a first-request cost (compiling, caches).
    expect((await getWithKey(app.url + CHURCH, await createTestKey(app.services))).status).toBe(200);
    const lock = await holdWriteLock(path.join(app.dir, 'church.sqlite'), LOCK_MS);

    // The first request of the minute with this key is the one that writes "last used".
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const response = await getWithKey(app.url + CHURCH, key);
      const elapsed = performance.now() - started;
      expect(response.status, `request ${i + 1}`).toBe(200);
      expect(elapsed, `request ${i + 1} took ${elapsed.toFixed(0)} ms`).toBeLessThan(100);
    }
    expect((await app.services.accountRepository.listKeys(developer.id))[0].lastUsedAt).toBeNull();
    expect(app.logs.some((line) => line.includes('not written (database busy)'))).toBe(true);
    expect(app.logs.some((line) => line.includes('"status":500'))).toBe(false);

    expect(await lock.exited).toBe(0);
    // The deferred write is retried every second once the lock is gone.
    const deadline = Date.now() + 3_000;
    while ((await app.services.accountRepository.listKeys(developer.id))[0].lastUsedAt === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await app.services.accountRepository.listKeys(developer.id))[0].lastUsedAt).not.toBeNull();
  }, 20_000);

  it('turns a database error in a request into a logged problem, never a bare 500', async () => {
    const key = await createTestKey(app.services);
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const lookup = vi.spyOn(app.services.churches, 'publicChurchBySlug').mockRejectedValue(busy);
    try {
      const before = app.logs.length;
      const response = await getWithKey(app.url + CHURCH, key);
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: response.status });
      const errors = app.logs.slice(before).filter((line) => line.includes('"level":"error"'));
      expect(errors.some((line) => line.includes('database is locked'))).toBe(true);
    } finally {
      lookup.mockRestore();
    }
  });
});
