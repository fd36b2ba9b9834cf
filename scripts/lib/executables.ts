// Tools found outside the repository (PostgreSQL's initdb, redis-server, nginx): on PATH or where Debian puts them; for tests and the benchmark.
import fs from 'node:fs';
import path from 'node:path';

/**
 * An `initdb` with a `pg_ctl` beside it (symbolic links followed, as /usr/local/bin ones point into
 * /usr/lib/postgresql/<major>/bin), newest Debian major first after PATH; undefined when there is none.
 */
export function findPostgresInitdb(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const debianRoot = '/usr/lib/postgresql';
  const majors = (fs.existsSync(debianRoot) ? fs.readdirSync(debianRoot) : []).filter((name) => /^\d+$/.test(name));
  const debianDirs = majors.sort((a, b) => Number(b) - Number(a)).map((major) => path.join(debianRoot, major, 'bin'));
  for (const dir of [undefined, ...debianDirs]) {
    const initdb = dir === undefined ? findExecutable('initdb', env, ['/usr/local/bin']) : findExecutable('initdb', { PATH: dir });
    if (initdb === undefined) continue;
    const real = fs.realpathSync(initdb);
    if (findExecutable('pg_ctl', { PATH: path.dirname(real) })?.startsWith(path.dirname(real))) return real;
  }
  return undefined;
}

/** The executable `name` on PATH or in one of `extraDirs`, or undefined. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env, extraDirs: readonly string[] = []): string | undefined {
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/usr/sbin', ...extraDirs];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this folder: look in the next one.
    }
  }
  return undefined;
}
