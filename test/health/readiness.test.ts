// The readiness runner: checks run together, each bounded by its own timeout; a failure carries its reason; the database check over a closed file fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.ts';
import { pingDatabase } from '../../src/db/ping.ts';
import { bibleCheck, databaseCheck } from '../../src/health/checks.ts';
import { runReadinessChecks } from '../../src/health/readiness.ts';

describe('runReadinessChecks', () => {
  it('runs the checks at once: a hung one costs its own timeout, and the others still report', async () => {
    // 'waits' answers only once 'starts' has been called: run one after the other, it would wait
    // out its own timeout (10 s) and fail. No bound on the time the whole run takes is needed.
    let othersStarted!: () => void;
    const started = new Promise<void>((resolve) => (othersStarted = resolve));
    const results = await runReadinessChecks([
      { name: 'waits', run: () => started.then(() => 'saw the next one start'), timeoutMs: 10_000 },
      { name: 'hung', run: () => new Promise<undefined>(() => {}), timeoutMs: 300 },
      {
        name: 'starts',
        run: () => {
          othersStarted();
          return 'fine';
        },
      },
      { name: 'broken', run: () => Promise.reject(new Error('connection refused')) },
      {
        name: 'throws',
        run: () => {
          throw new Error('file is not a database');
        },
      },
    ]);
    expect(results.map(({ name, ok, detail }) => ({ name, ok, detail }))).toEqual([
      { name: 'waits', ok: true, detail: 'saw the next one start' },
      { name: 'hung', ok: false, detail: 'no answer within 300 ms' },
      { name: 'starts', ok: true, detail: 'fine' },
      { name: 'broken', ok: false, detail: 'connection refused' },
      { name: 'throws', ok: false, detail: 'file is not a database' },
    ]);
    // A timer never fires early: the hung check is reported after its whole timeout (to the rounding of ms).
    expect(results[1].ms).toBeGreaterThanOrEqual(299);
  });
});

describe('the service checks', () => {
  it('the database check passes on an open database and fails once it is closed', async () => {
    const db = openDatabase(':memory:');
    const check = databaseCheck(pingDatabase(db));
    expect((await runReadinessChecks([check]))[0]).toMatchObject({ name: 'database', ok: true });
    db.close();
    expect((await runReadinessChecks([check]))[0]).toMatchObject({
      name: 'database',
      ok: false,
      detail: expect.stringMatching(/not open/),
    });
  });

  it('the bible check reports the build hash, or the reason there is none and where it looked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-readiness-'));
    try {
      const where = { biblePublicDir: path.join(dir, 'public'), bibleDatabasePath: path.join(dir, 'bible.sqlite') };
      const notBuilt = { status: () => ({ available: false as const, reason: 'The Bible has not been built: build.json is missing.' }) };
      const loaded = bibleCheck({ status: () => ({ available: true, buildHash: 'abc123' }) }, where);
      const missing = bibleCheck(notBuilt, where);
      expect(await runReadinessChecks([loaded, missing])).toMatchObject([
        { name: 'bible', ok: true, detail: 'build abc123' },
        {
          name: 'bible',
          ok: false,
          detail: `The Bible has not been built: build.json is missing. Looked in BIBLE_PUBLIC_DIR ${where.biblePublicDir} (no such folder) and BIBLE_DB_PATH ${where.bibleDatabasePath}.`,
        },
      ]);
      // The folder is there, the build is not in it.
      fs.mkdirSync(where.biblePublicDir);
      expect((await runReadinessChecks([missing]))[0].detail).toBe(
        `The Bible has not been built: build.json is missing. Looked in BIBLE_PUBLIC_DIR ${where.biblePublicDir} and BIBLE_DB_PATH ${where.bibleDatabasePath}.`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
