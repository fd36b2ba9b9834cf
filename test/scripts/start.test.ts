// `npm start` as a user runs it: demo churches on a fresh database, and SIGTERM or SIGINT sent to npm alone ends the server too.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBibleFixture } from '../helpers/bible-fixture.ts';

const root = path.resolve(import.meta.dirname, '../..');

interface NpmStart {
  npm: ChildProcess;
  /** The server's port and pid, from its "listening" log line. */
  port: number;
  serverPid: number;
  /** Every log line (JSON) the server wrote. */
  messages: string[];
  /** npm's children while the server runs. */
  children: number[];
  /** npm's descendants while the server runs (tsx's esbuild service among them). */
  descendants: number[];
  exited: Promise<number | null>;
}

const started: NpmStart[] = [];
const folders: string[] = [];

/** Runs `npm start` in the checkout, in a process group of its own, with its files in a temporary folder. */
async function npmStart(bibleEnv: Record<string, string> = {}): Promise<NpmStart> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-npm-start-'));
  folders.push(dir);
  const npm = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? dir,
      npm_config_update_notifier: 'false',
      PORT: '0',
      DATABASE_PATH: path.join(dir, 'church.sqlite'),
      KEY_SECRET_FILE: path.join(dir, 'key.secret'),
      MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      BIBLE_PUBLIC_DIR: path.join(dir, 'public'),
      BIBLE_DB_PATH: path.join(dir, 'bible.sqlite'),
      ...bibleEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  const output: string[] = [];
  const messages: string[] = [];
  npm.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const listening = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s:\n${output.join('\n')}`)), 60_000);
    readline.createInterface({ input: npm.stdout! }).on('line', (line) => {
      output.push(line);
      // npm's own banner ("> church-bible-api start") comes first; the server's lines are JSON.
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { message: string; url?: string; pid: number };
      messages.push(entry.message);
      if (entry.message === 'listening' && entry.url) {
        clearTimeout(timer);
        resolve({ port: Number(new URL(entry.url).port), pid: entry.pid });
      }
    });
    npm.on('exit', (code) => reject(new Error(`npm exited with ${code}:\n${output.join('\n')}`)));
  });
  const run = {
    npm,
    port: listening.port,
    serverPid: listening.pid,
    messages,
    children: descendantsOf(npm.pid!, 1),
    descendants: descendantsOf(npm.pid!),
    exited,
  };
  started.push(run);
  return run;
}

afterEach(() => {
  // A failed test must not leave a server behind: its group is the one npmStart made.
  for (const run of started.splice(0)) {
    for (const pid of [run.npm.pid!, ...run.descendants]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('runs the server as the one child of npm, and loads the demo churches into a new database', async () => {
    const run = await npmStart();
    // No shell and no tsx launcher in between: the signal npm forwards reaches the server itself.
    expect(run.children).toEqual([run.serverPid]);
    expect(run.messages.some((message) => message.startsWith('demo data loaded'))).toBe(true);
  });

  it('serves the Bible from its bundle, searches on the worker bundled with it, and keeps no bundler process', async () => {
    const bible = await buildBibleFixture();
    folders.push(bible.dir);
    const run = await npmStart(bible.env);
    const base = `http://127.0.0.1:${run.port}/api/v1/bible`;
    const range = await fetch(`${base}/JHN/3/16/17?lang=en`);
    expect(range.status).toBe(200);
    const search = await fetch(`${base}/search?q=${encodeURIComponent('world')}&lang=en`);
    expect(search.status).toBe(200);
    expect(((await search.json()) as { totalItems: number }).totalItems).toBeGreaterThan(0);
    // Bundling at run time would leave esbuild's service process under the server; start.mjs stops its own.
    expect(descendantsOf(run.serverPid)).toEqual([]);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'ends the server when npm alone gets %s: the port closes and no process stays',
    async (signal) => {
      const run = await npmStart();
      expect(await portAnswers(run.port)).toBe(true);
      // The processes checked below include the server itself: the check is not over an empty list.
      expect(run.descendants).toContain(run.serverPid);
      process.kill(run.npm.pid!, signal);
      expect(await run.exited).toBe(0);
      await waitUntil(() => run.descendants.every((pid) => !isAlive(pid)), 10_000);
      expect(run.descendants.filter(isAlive)).toEqual([]);
      expect(await portAnswers(run.port)).toBe(false);
      expect(run.messages).toContain('shutting down');
    },
  );
});

/** Every process below `pid` now, `depth` levels down at most, from /proc (Linux). */
function descendantsOf(pid: number, depth = Number.POSITIVE_INFINITY): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone between readdir and read.
    }
  }
  const found: number[] = [];
  const visit = (parent: number, level: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        if (level < depth) visit(child, level + 1);
      }
    }
  };
  visit(pid, 1);
  return found;
}

/** Running (a zombie waiting for its parent counts as ended). */
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
