// `redocly lint` finds nothing to report in the document the service serves, with the Bible limit on and off.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REDOCLY = path.join(ROOT, 'node_modules/.bin/redocly');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe('redocly lint of the served OpenAPI document', () => {
  const servers: TestServer[] = [];
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redocly-lint-'));
    servers.push(
      await startTestServer({ LOG_LEVEL: 'silent' }),
      await startTestServer({ LOG_LEVEL: 'silent', BIBLE_RATE_LIMIT_PER_MINUTE: '0' }),
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports no error and no warning', async () => {
    for (const [index, server] of servers.entries()) {
      const file = path.join(dir, `openapi-${index}.json`);
      fs.writeFileSync(file, await (await fetch(`${server.url}/api/openapi.json`)).text());
      const report = await lint(file);
      const found = report.problems.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
      expect(found, file).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    }
  });
});

/** `redocly lint --format=json` with the project's redocly.yaml; it exits non-zero on errors, and its report says which. */
async function lint(file: string): Promise<LintReport> {
  const options = {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    timeout: 60_000,
  };
  const args = ['lint', '--format=json', `--config=${path.join(ROOT, 'redocly.yaml')}`, file];
  try {
    return JSON.parse((await promisify(execFile)(REDOCLY, args, options)).stdout) as LintReport;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as LintReport;
    throw error;
  }
}
