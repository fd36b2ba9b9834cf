// A throwaway PostgreSQL server (initdb + pg_ctl in a temporary folder) on a free loopback port, databases made on demand: for tests and the benchmark.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './redis-server.ts';

export interface PostgresTestServer {
  port: number;
  /** URL of the `postgres` maintenance database, as the superuser (with its password). */
  adminUrl: string;
  /** The superuser's password: tests check it never reaches an error message or a log. */
  password: string;
  /** Creates an empty database (optionally a copy of `template`) and returns its URL. */
  createDatabase(options?: { template?: string }): Promise<{ name: string; url: string }>;
  /** Runs SQL as the superuser in database `name` (checks from outside the code under test). */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(name: string, sql: string, values?: unknown[]): Promise<Row[]>;
  /** Stops the server (fast shutdown: connections are cut), keeping its data; `start` brings it back on the same port. */
  halt(): Promise<void>;
  /**
   * SIGSTOP to the server and every process it started (the backends of open connections): a hung
   * server, which keeps its connections and accepts new ones but answers nothing. `resume` continues them.
   */
  pause(): void;
  resume(): void;
  start(): Promise<void>;
  /** The postmaster's process id and its children's (the backends of open connections, the server's own workers). */
  processes(): number[];
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a server from the installation of `initdb` (findPostgresInitdb()): initdb with a
 * superuser password (scram-sha-256 over TCP), then pg_ctl with `listen_addresses=127.0.0.1` and
 * `fsync=off` (a test server needs no durability across a power cut). initdb refuses to run as
 * root, so as root the folder goes to the `postgres` user and both commands run through `runuser`.
 *
 * @example const server = await startPostgresServer(findPostgresInitdb()!); const { url } = await server.createDatabase();
 */
export async function startPostgresServer(initdb: string): Promise<PostgresTestServer> {
  const binDir = path.dirname(initdb);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const password = randomBytes(12).toString('hex');
  const asServerUser = serverUser(dir);
  fs.writeFileSync(path.join(dir, 'password'), password);
  if (asServerUser) fs.chownSync(path.join(dir, 'password'), asServerUser.uid, asServerUser.gid);

  run(asServerUser, path.join(binDir, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    `--pwfile=${path.join(dir, 'password')}`,
    '--auth-host=scram-sha-256',
    '--auth-local=peer',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);

  let port = 0;
  const pgCtl = (args: string[]) => run(asServerUser, path.join(binDir, 'pg_ctl'), ['-D', dataDir, ...args]);
  const startOn = (candidate: number) =>
    pgCtl([
      '-l',
      logFile,
      '-w',
      '-t',
      '60',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${candidate} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
      'start',
    ]);
  // The port is free when asked, but another test may take it before the server binds: try a few.
  for (let attempt = 1; ; attempt++) {
    const candidate = await freePort();
    try {
      startOn(candidate);
      port = candidate;
      break;
    } catch (error) {
      if (attempt === 3) {
        const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
        fs.rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`);
      }
    }
  }

  let running = true;
  let paused: number[] = [];
  /** A paused server would never see pg_ctl's signal: continued before it is stopped. */
  const continuePaused = () => {
    for (const pid of paused.splice(0)) process.kill(pid, 'SIGCONT');
  };
  const stopNow = () => {
    if (!running) return;
    running = false;
    continuePaused();
    try {
      pgCtl(['-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already gone: nothing to stop.
    }
  };
  // A test process that ends without its afterAll (a crash, a timeout) must not leave a server behind.
  process.once('exit', () => {
    stopNow();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const urlOf = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  const adminUrl = urlOf('postgres');
  let created = 0;

  const query = async <Row extends pg.QueryResultRow>(database: string, sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return (await client.query<Row>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };

  return {
    port,
    adminUrl,
    password,
    async createDatabase({ template } = {}) {
      created += 1;
      const name = `test_${process.pid}_${created}`;
      // FILE_COPY: with fsync off, faster than the default WAL_LOG for a small template.
      await query('postgres', `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template} STRATEGY FILE_COPY` : ''}`);
      return { name, url: urlOf(name) };
    },
    query,
    async halt() {
      continuePaused();
      pgCtl(['-m', 'fast', '-w', 'stop']);
      running = false;
    },
    pause() {
      paused = serverProcesses(dataDir);
      for (const pid of paused) process.kill(pid, 'SIGSTOP');
    },
    resume: continuePaused,
    processes: () => serverProcesses(dataDir),
    async start() {
      startOn(port);
      running = true;
    },
    async stop() {
      stopNow();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The postmaster (first line of postmaster.pid) and its child processes, from /proc. */
function serverProcesses(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The parent id is the fourth field, after the command name in parentheses (which may hold spaces).
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** The `postgres` user when this process is root (initdb refuses root), after giving it `dir`; undefined otherwise. */
function serverUser(dir: string): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  fs.chownSync(dir, uid, gid);
  return { uid, gid };
}

/** Runs a PostgreSQL tool, as the server user when there is one; throws with its output when it fails. */
function run(asServerUser: { uid: number } | undefined, command: string, args: string[]): void {
  const [file, argv] = asServerUser ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', cwd: os.tmpdir() });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(command)} ${args.at(-1)} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`,
    );
  }
}
