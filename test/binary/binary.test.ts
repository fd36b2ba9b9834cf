// The single binary: built by npm run build:binary and copied alone into an empty folder, it serves the Bible and the church API, runs its own CLI and stops cleanly on SIGTERM.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { buildBinary } from '../../scripts/binary/build.ts';
import { NODE24_VERSION } from '../../scripts/binary/node24.ts';
import { npmStartNodeFlags } from '../../scripts/lib/npm-start.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { describeWith } from '../helpers/requirements.ts';
import { type BinaryServer, runBinary, startBinaryServer } from './binary-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describeWith(['node24'], 'the single binary, alone in an empty folder', () => {
  let dir: string;
  let binary: string;
  let tmp: string;
  let bible: BibleFixture;
  let env: Record<string, string>;
  let server: BinaryServer;

  beforeAll(async () => {
    // Builds once per run at most: an unchanged checkout finds its executable up to date.
    const build = await buildBinary({ root: ROOT });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-binary-'));
    binary = path.join(dir, 'church-api');
    fs.copyFileSync(build.file, binary);
    fs.chmodSync(binary, 0o755);
    // Its own temporary folder, to see the addon's private file appear and go.
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-binary-tmp-'));
    bible = await buildBibleFixture();
    // Only these variables: nothing points back at the checkout or its node_modules.
    env = { PORT: '0', DEMO_DATA: 'true', LOG_LEVEL: 'info', TMPDIR: tmp, ...bible.env };
    server = await startBinaryServer(binary, dir, env);
  }, 600_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    bible?.remove();
    for (const folder of [dir, tmp]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('holds the whole service: the folder has nothing else, and the process loads nothing from a node_modules', () => {
    expect(fs.readdirSync(dir).sort()).toEqual(['church-api', 'var']);
    const mapped = fs.readFileSync(`/proc/${server.child.pid}/maps`, 'utf8');
    expect(mapped).not.toContain('node_modules');
  });

  it("starts with npm start's Node flags (its SEA configuration's execArgv)", () => {
    const seaConfig = JSON.parse(fs.readFileSync(path.join(ROOT, '.cache/binary/sea-config.json'), 'utf8')) as { execArgv: string[] };
    expect(npmStartNodeFlags(ROOT)).toContain('--max-semi-space-size=8');
    expect(seaConfig.execArgv).toEqual(npmStartNodeFlags(ROOT));
  });

  it('is ready, and serves a chapter of the Bible build beside it', async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const response = await fetch(`${server.url}/api/v1/bible/GEN/1?lang=en`);
    expect(response.status).toBe(200);
    const chapter = (await response.json()) as { verses: { text: string }[] };
    expect(chapter.verses[0].text).toBe('In the beginning God created the heaven and the earth.');
  });

  it('searches the Bible on its worker threads', async () => {
    const response = await fetch(`${server.url}/api/v1/bible/search?q=beginning&lang=en`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { totalItems: number; items: { chapter: number; verse: number; text: string }[] };
    expect(page.totalItems).toBeGreaterThan(0);
    expect(page.items[0]).toMatchObject({ chapter: 1, verse: 1 });
    expect(page.items[0].text).toContain('beginning');
  });

  it('answers a church endpoint with a key minted by its own CLI, and refuses one it did not mint', async () => {
    const email = 'operator@example.org';
    const developer = await runBinary(binary, ['cli', 'create-developer', '--email', email, '--name', 'Operator', '--verified'], dir, env);
    expect(developer.code, developer.stderr).toBe(0);
    const created = await runBinary(binary, ['cli', 'create-key', '--email', email, '--name', 'binary test'], dir, env);
    expect(created.code, created.stderr).toBe(0);
    const key = /sk_live_[0-9A-Za-z]+/.exec(created.stdout)?.[0];
    expect(key, created.stdout).toBeDefined();

    const events = `${server.url}/api/public/v1/churches/grace-paris/events`;
    const response = await fetch(events, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    const otherKey = `${key!.slice(0, -10)}${'A'.repeat(10)}`;
    expect((await fetch(events, { headers: { authorization: `Bearer ${otherKey}` } })).status).toBe(401);
  });

  it("names itself in its CLI's usage lines, not the checkout's npm script", async () => {
    const help = await runBinary(binary, ['cli', 'help'], dir, env);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: church-api cli <command> [arguments]');
    expect(help.stdout).not.toContain('npm run');
    const one = await runBinary(binary, ['cli', 'revoke-key', '--help'], dir, env);
    expect(one.stdout).toContain('Usage: church-api cli revoke-key --email E --id ID');
  });

  it('serves the pages and assets it carries: /docs with its renderer, the OpenAPI document, the portal', async () => {
    for (const [page, type, minBytes] of [
      ['/docs', 'text/html', 500],
      ['/docs/docs.js', 'javascript', 100],
      ['/docs/vendor/scalar-api-reference.js', 'javascript', 1_000_000],
      ['/api/openapi.json', 'application/json', 10_000],
      ['/portal/sign-up', 'text/html', 500],
      ['/portal/assets/portal.css', 'text/css', 1000],
    ] as const) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type'), page).toContain(type);
      expect((await response.arrayBuffer()).byteLength, page).toBeGreaterThan(minBytes);
    }
  });

  it('keeps the SQLite addon in a private temporary file while it runs', () => {
    const [folder] = fs.readdirSync(tmp);
    expect(folder).toMatch(/^church-api-/);
    expect(fs.statSync(path.join(tmp, folder)).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(path.join(tmp, folder));
    expect(files).toEqual(['better_sqlite3.node']);
    expect(fs.statSync(path.join(tmp, folder, files[0])).mode & 0o777).toBe(0o600);
  });

  it('tells its version, the commit it was built from and its Node.js', async () => {
    const { code, stdout } = await runBinary(binary, ['--version'], dir, env);
    expect(code).toBe(0);
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    expect(stdout.trim()).toMatch(
      new RegExp(`^church-api ${packageJson.version} \\(commit ${commit}(-dirty)?\\) on Node\\.js v${NODE24_VERSION}$`),
    );
  });

  it('ends with exit code 0 on SIGTERM, and removes its temporary file', async () => {
    const ended = await server.stop('SIGTERM');
    expect(ended, server.output()).toEqual({ code: 0, signal: null });
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});
