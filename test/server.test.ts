// The service as a real process (src/server.ts, as an operator's unit runs it): creates its database without demo data, answers, stops cleanly.
// `npm start` (demo data, signals through npm) is test/scripts/start.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch } from './helpers/api-client.ts';

const root = path.resolve(import.meta.dirname, '..');
let child: ChildProcess;
let baseUrl: string;
let dir: string;
const lines: string[] = [];

describe('the service started as a process of its own', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-start-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        DATABASE_PATH: path.join(dir, 'church.sqlite'),
        KEY_SECRET_FILE: path.join(dir, 'key.secret'),
        BIBLE_PUBLIC_DIR: path.join(dir, 'public'),
        BIBLE_DB_PATH: path.join(dir, 'bible.sqlite'),
        PUBLIC_BASE_URL: 'https://api.example.test/',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (chunk) => lines.push(String(chunk)));
    baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s:\n${lines.join('\n')}`)), 60_000);
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        const entry = JSON.parse(line) as { message: string; url?: string };
        if (entry.message === 'listening' && entry.url) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${lines.join('\n')}`)));
    });
  });

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates its database without the demo churches (DEMO_DATA is off unless asked for), logging JSON lines', () => {
    expect(fs.existsSync(path.join(dir, 'church.sqlite'))).toBe(true);
    const logged = lines.map((line) => JSON.parse(line) as { message: string; level: string });
    expect(logged.some((entry) => entry.message === 'listening')).toBe(true);
    expect(logged.some((entry) => entry.message.startsWith('demo data loaded'))).toBe(false);
    expect(logged.every((entry) => typeof entry.level === 'string')).toBe(true);
  });

  it('answers church endpoints with 401 without a key, and Bible endpoints with 503 until the Bible is built', async () => {
    const church = await apiFetch(`${baseUrl}/api/public/v1/churches/anything`);
    expect(church.status).toBe(401);
    const bible = await apiFetch(`${baseUrl}/api/v1/bible/versions`);
    expect(bible.status).toBe(503);
    expect(bible.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await bible.json()) as { detail: string }).detail).toContain('npm run build:bible');
  });

  it('answers a path that matches no route with a 404 problem', async () => {
    const response = await apiFetch(`${baseUrl}/api/v2/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'https://api.example.test/docs/problems#path-not-found',
      title: 'No such path',
      status: 404,
      detail: 'No resource at /api/v2/nothing-here.',
    });
  });

  it('stops with exit code 0 on SIGTERM, its log written to the last line (the access line of the last request)', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await apiFetch(`${baseUrl}/api/v2/nothing-here`, { headers: { 'x-request-id': 'the-last-before-sigterm' } });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const logged = lines.map((line) => JSON.parse(line) as { message: string; requestId?: string });
    expect(logged.some((entry) => entry.message === 'request' && entry.requestId === 'the-last-before-sigterm')).toBe(true);
    expect(logged.at(-1)?.message).toBe('shutting down');
  });
});
