// Fetching the pinned sources from a real HTTP server on loopback, in-process and through the script.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FetchSourcesError, fetchSources, sourceUrl } from '../../build/fetch-sources.ts';
import { SourceMismatchError } from '../../build/sources.ts';
import type { VersionManifestEntry } from '../../build/version-manifest.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** What the server serves, by file name; tests change it. */
const served = new Map<string, Buffer>();
const requests: string[] = [];
let server: Server;
let mirror: string;
let dir: string;

function entry(code: string, file: string, content: string | Buffer): VersionManifestEntry {
  return {
    lang: 'en',
    code,
    name: `${code} test`,
    languageName: 'English',
    year: 2000,
    licence: 'Public domain',
    attribution: 'Test',
    format: 'sword',
    file,
    upstream: 'https://example.invalid/upstream',
    revision: 'f'.repeat(40),
    url: `https://example.invalid/upstream/${file}`,
    sha256: sha256(content),
  };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const body = served.get(decodeURIComponent((request.url ?? '').slice(1)));
    if (!body) return void response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  served.clear();
  requests.length = 0;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'bible-fetch-'));
});

describe('fetchSources', () => {
  it('downloads each file from the mirror and verifies it', async () => {
    const big = Buffer.alloc(300_000, 7); // several chunks through the stream
    served.set('A.zip', Buffer.from('first module'));
    served.set('B.zip', big);
    const lines: string[] = [];
    const fetched = await fetchSources({
      dir,
      entries: [entry('A', 'A.zip', 'first module'), entry('B', 'B.zip', big)],
      mirror,
      log: (line) => lines.push(line),
    });
    expect(fetched.map((source) => [source.entry.code, source.status, source.bytes])).toEqual([
      ['A', 'downloaded', 12],
      ['B', 'downloaded', 300_000],
    ]);
    expect(await readFile(join(dir, 'A.zip'), 'utf8')).toBe('first module');
    expect(sha256(await readFile(join(dir, 'B.zip')))).toBe(sha256(big));
    expect((await readdir(dir)).sort()).toEqual(['A.zip', 'B.zip']);
    expect(lines.join('\n')).toContain('SHA-256 ok');
  });

  it('skips a file that is already there with the pinned hash', async () => {
    served.set('A.zip', Buffer.from('first module'));
    await writeFile(join(dir, 'A.zip'), 'first module');
    const [source] = await fetchSources({ dir, entries: [entry('A', 'A.zip', 'first module')], mirror });
    expect(source.status).toBe('present');
    expect(requests).toEqual([]);
  });

  it('replaces a present file whose hash is wrong', async () => {
    served.set('A.zip', Buffer.from('first module'));
    await writeFile(join(dir, 'A.zip'), 'tampered');
    const [source] = await fetchSources({ dir, entries: [entry('A', 'A.zip', 'first module')], mirror });
    expect(source.status).toBe('downloaded');
    expect(await readFile(join(dir, 'A.zip'), 'utf8')).toBe('first module');
  });

  it('refuses bytes with the wrong hash and leaves no file behind', async () => {
    served.set('A.zip', Buffer.from('not the pinned module'));
    served.set('B.zip', Buffer.from('second module'));
    const error = await fetchSources({
      dir,
      entries: [entry('A', 'A.zip', 'first module'), entry('B', 'B.zip', 'second module')],
      mirror,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FetchSourcesError);
    const { failures, fetched } = error as FetchSourcesError;
    expect(failures.map((failure) => failure.entry.code)).toEqual(['A']);
    expect(failures[0].error).toBeInstanceOf(SourceMismatchError);
    expect(failures[0].error.message).toContain(sha256('not the pinned module'));
    expect(failures[0].error.message).toContain(`${mirror}/A.zip`);
    // The good file still arrived; the bad one, and any temporary file, are gone.
    expect(fetched.map((source) => source.entry.code)).toEqual(['B']);
    expect(await readdir(dir)).toEqual(['B.zip']);
  });

  it('reports an HTTP error with its URL and leaves no file behind', async () => {
    const error = await fetchSources({ dir, entries: [entry('A', 'A.zip', 'x')], mirror }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/A\.zip.*HTTP 404/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('uses the pinned URL unless a mirror is given', () => {
    const pinned = entry('A', 'A.zip', 'x');
    expect(sourceUrl(pinned)).toBe('https://example.invalid/upstream/A.zip');
    expect(sourceUrl(pinned, 'http://mirror.test/bible/')).toBe('http://mirror.test/bible/A.zip');
  });
});

describe('npm run fetch:bible (scripts/fetch-bible.ts)', () => {
  const runScript = async (args: string[]) => {
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    // Async on purpose: the loopback server answers from this process while the script runs.
    return promisify(execFile)(tsx, ['scripts/fetch-bible.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, BIBLE_SOURCES_DIR: '', BIBLE_SOURCES_MIRROR: '', FORCE_COLOR: '0' },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  };

  it('downloads the chosen versions from a mirror, then finds them present', async () => {
    served.set('A.zip', Buffer.from('first module'));
    served.set('B.zip', Buffer.from('second module'));
    const manifest = join(dir, 'manifest.json');
    const target = join(dir, 'sources');
    const versions = [entry('A', 'A.zip', 'first module'), { ...entry('B', 'B.zip', 'second module'), lang: 'fr' }];
    await writeFile(manifest, JSON.stringify({ schemaVersion: 1, versions }));
    const args = ['--manifest', manifest, '--sources', target, '--mirror', mirror, '--only', 'A'];

    const first = await runScript(args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('1 source(s) ready, 1 downloaded');
    expect(await readdir(target)).toEqual(['A.zip']);

    const second = await runScript(args);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('present, SHA-256 ok');
    expect(requests).toEqual(['/A.zip']);
  });

  it('exits non-zero and names the mismatch when the mirror serves other bytes', async () => {
    served.set('A.zip', Buffer.from('not the pinned module'));
    const manifest = join(dir, 'manifest.json');
    const target = join(dir, 'sources');
    await writeFile(manifest, JSON.stringify({ schemaVersion: 1, versions: [entry('A', 'A.zip', 'first module')] }));

    const result = await runScript(['--manifest', manifest, '--sources', target, '--mirror', mirror]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`expected SHA-256 ${sha256('first module')}`);
    expect(result.stderr).toContain('npm run fetch:bible');
    expect(await readdir(target)).toEqual([]);
  });
});
