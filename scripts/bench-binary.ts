// Figures of the single binary: its size, the time from start to the first answer, and its memory (RSS) at idle.
// Usage: npm run bench:binary -- [--bible-public DIR --bible-db FILE] [--starts N]
//   --bible-public DIR, --bible-db FILE  a Bible build for the binary to serve (else BIBLE_PUBLIC_DIR and
//                  BIBLE_DB_PATH; without one the Bible is reported missing and only the church side runs)
//   --starts N     starts to time after the first one, which creates the database (default 5)
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chalk } from 'zx';
import { buildBinary } from './binary/build.ts';
import { parseCommandLine } from './command-line.ts';

const options = parseCommandLine('scripts/bench-binary.ts', {
  'bible-public': { type: 'string' },
  'bible-db': { type: 'string' },
  starts: { type: 'string', default: '5' },
});

/** Long enough for the start's garbage to be collected and the worker threads to settle. */
const IDLE_MS = 3000;

const build = await buildBinary({ root: process.cwd() });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-bench-'));
try {
  const binary = path.join(dir, 'church-api');
  fs.copyFileSync(build.file, binary);
  const biblePublic = options['bible-public'] ?? process.env.BIBLE_PUBLIC_DIR;
  const bibleDb = options['bible-db'] ?? process.env.BIBLE_DB_PATH;
  const env: Record<string, string> = { HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'warn' };
  if (biblePublic && bibleDb) Object.assign(env, { BIBLE_PUBLIC_DIR: path.resolve(biblePublic), BIBLE_DB_PATH: path.resolve(bibleDb) });

  const first = await timedStart(binary, dir, env);
  await stop(first.child);
  const restarts: number[] = [];
  for (let index = 0; index < Number(options.starts); index++) {
    const started = await timedStart(binary, dir, env);
    restarts.push(started.ms);
    await stop(started.child);
  }

  const running = await timedStart(binary, dir, env);
  await sleep(IDLE_MS);
  const idleStarted = rssMiB(running.child);
  const served = await exercise(running.url, Boolean(env.BIBLE_DB_PATH));
  await sleep(IDLE_MS);
  const idleServed = rssMiB(running.child);
  await stop(running.child);

  const median = [...restarts].sort((a, b) => a - b)[Math.floor(restarts.length / 2)];
  const figures: [string, string][] = [
    ['size', `${(build.bytes / 1024 / 1024).toFixed(1)} MiB`],
    ['start to first answer, new database', `${first.ms.toFixed(0)} ms`],
    [`start to first answer, median of ${restarts.length}`, `${median.toFixed(0)} ms (${restarts.map((ms) => ms.toFixed(0)).join(', ')})`],
    ['RSS at idle after start', `${idleStarted.toFixed(1)} MiB`],
    [`RSS at idle after ${served}`, `${idleServed.toFixed(1)} MiB`],
  ];
  const width = Math.max(...figures.map(([label]) => label.length));
  console.log(
    `Single binary ${path.relative(process.cwd(), build.file)} (Node.js ${build.nodeVersion}, commit ${build.commit ?? 'unknown'})`,
  );
  for (const [label, value] of figures) console.log(`  ${label.padEnd(width)}  ${value}`);
  if (!env.BIBLE_DB_PATH)
    console.log(chalk.yellow('  (no Bible build given: the Bible side did not run; see the usage at the top of this script)'));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

interface Started {
  child: ChildProcess;
  url: string;
  /** From spawn to the first 200 of GET /. */
  ms: number;
}

/** Starts the binary on a free port and asks GET / every 5 ms until it answers. */
async function timedStart(binary: string, cwd: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(binary, [], { cwd, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  while (child.exitCode === null) {
    try {
      if ((await fetch(`${url}/`)).status === 200) return { child, url, ms: performance.now() - started };
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  throw new Error(`the binary ended with code ${child.exitCode} before answering`);
}

/** Requests a server does in its first minutes: the document, church pages (404s without data), and Bible chapters and searches. */
async function exercise(url: string, bible: boolean): Promise<string> {
  const paths = ['/api/openapi.json', '/docs', '/portal/sign-in', '/api/public/v1/churches/none'];
  if (bible) {
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl'])
      paths.push(`/api/v1/bible/JHN/3?lang=${lang}`, `/api/v1/bible/search?q=amor&lang=${lang}`);
    paths.push('/api/v1/bible/passage?ref=Ps%20119&lang=en', '/api/v1/bible/search?q=%22the%20lord%22&lang=en');
  }
  for (const pathname of paths) await (await fetch(`${url}${pathname}`)).arrayBuffer();
  return bible ? `${paths.length} requests incl. searches` : `${paths.length} requests (no Bible)`;
}

function rssMiB(child: ChildProcess): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await ended;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
