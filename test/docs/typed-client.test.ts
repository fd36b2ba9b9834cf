// The typed client of docs/typed-client.md, shown working: types generated from the live served document (openapi-typescript), the example compiled with tsc and run against a test server (openapi-fetch).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKey } from '../helpers/api-key.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** tsc over the folder's files, as the docs tell a reader to check them; resolves with its output, rejects with it on errors. */
function typecheck(dir: string) {
  return run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { timeout: 120_000 });
}

describe('the typed client example', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'typed-client-'));
    // The reader's project: the example beside its generated types, with this repository's packages.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    fs.copyFileSync(path.join(ROOT, 'docs/typed-client/example.ts'), path.join(dir, 'example.ts'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['*.ts'],
      }),
    );
    // Generated from the document this server serves, not from a copy: the types cannot drift from the answers.
    const ast = await openapiTS(new URL(`${server.url}/api/openapi.json`));
    fs.writeFileSync(path.join(dir, 'api-types.ts'), astToString(ast));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    bible?.remove();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('compiles against the types generated from the served document', async () => {
    await expect(typecheck(dir)).resolves.toBeDefined();
  }, 120_000);

  it('refuses at compile time a path, a parameter or a field the document does not have', async () => {
    const wrong = path.join(dir, 'wrong.ts');
    fs.writeFileSync(
      wrong,
      `import createClient from 'openapi-fetch';
import type { paths } from './api-types.ts';
const api = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
await api.GET('/api/v1/bible/passages', { params: { query: { ref: 'John 3:16' } } });
const { data } = await api.GET('/api/v1/bible/passage', { params: { query: { reference: 'John 3:16' } } });
console.log(data?.passages[0]?.verses[0]?.number);
`,
    );
    try {
      const failure = await typecheck(dir).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      expect(failure).toContain(`wrong.ts(4,`);
      expect(failure).toContain(`wrong.ts(5,`);
      expect(failure).toContain(`wrong.ts(6,`);
    } finally {
      fs.rmSync(wrong);
    }
  }, 120_000);

  it('runs against the server: John 3:16 in English without a key, a church profile with one', async () => {
    const key = await createTestKey(server.services);
    const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['example.ts'], {
      cwd: dir,
      env: { ...process.env, API_BASE_URL: server.url, CHURCH_API_KEY: key },
      timeout: 60_000,
    });
    expect(stdout).toContain('John 3:16 (KJV) 16: en For God so loved the world (John 3:16).');
    expect(stdout).toMatch(/^Église Grâce Paris, Paris: https?:\/\/\S+\/grace-paris$/m);
  }, 120_000);
});
