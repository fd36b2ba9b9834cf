// An instance on SQLite loads no package of a backend or provider it does not use: node-postgres, node-redis, nodemailer, openid-client cost memory (issue 28).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/packages-loaded.ts');

/** The watched packages the service loaded in a process of its own (a test process may have loaded any of them). */
async function packagesLoaded(...args: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', FIXTURE, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout) as string[];
}

describe('the service on SQLite, without Redis, SMTP or OIDC', () => {
  test('has not loaded node-postgres, node-redis, nodemailer or openid-client after serving', async () => {
    expect(await packagesLoaded()).toEqual([]);
  }, 30_000);

  test('the check sees node-postgres (CommonJS) and openid-client (an ES module) once they are imported', async () => {
    expect(await packagesLoaded('--load-watched')).toEqual(expect.arrayContaining(['pg', 'pg-pool', 'openid-client']));
  }, 30_000);
});
