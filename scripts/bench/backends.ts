// The storage backends a run can measure the service on (`--backend NAME`): each gives the variables that point the service and the CLI at it.
import { findPostgresInitdb } from '../lib/executables.ts';
import { startPostgresServer } from '../lib/postgres-server.ts';

export interface PreparedBackend {
  /** Variables for every service instance and the CLI, on top of the run's own. */
  env: Record<string, string>;
  /** Stops and removes what prepare made (a database server…); the run's folder itself is removed by the run. */
  close(): Promise<void>;
  /** The database server's processes now (its CPU time per answer is reported); none for an embedded database. */
  processes(): number[];
}

export interface Backend {
  name: string;
  description: string;
  /** Why it cannot run on this machine (a server binary missing), or undefined when it can. */
  unavailable(): string | undefined;
  /** Makes the backend ready in `workDir`, a fresh folder of this run. */
  prepare(workDir: string): Promise<PreparedBackend>;
}

/** SQLite in the run's folder: the service's default, what `npm start` runs with. */
const sqlite: Backend = {
  name: 'sqlite',
  description: 'embedded SQLite (WAL) in a fresh file',
  unavailable: () => undefined,
  async prepare(workDir) {
    return { env: { DATABASE_PATH: `${workDir}/church.sqlite` }, close: async () => {}, processes: () => [] };
  },
};

/**
 * PostgreSQL: a throwaway server started as the tests start theirs (scripts/lib/postgres-server.ts),
 * with an empty database; the first service instance migrates it and loads the demo churches.
 */
const postgres: Backend = {
  name: 'postgres',
  description: 'PostgreSQL (throwaway local server, fsync off) in an empty database',
  unavailable: () => (findPostgresInitdb() ? undefined : 'PostgreSQL is not installed (apt-get install postgresql)'),
  async prepare() {
    const initdb = findPostgresInitdb();
    if (!initdb) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
    const server = await startPostgresServer(initdb);
    const { url } = await server.createDatabase();
    return { env: { DATABASE_URL: url }, close: () => server.stop(), processes: () => server.processes() };
  },
};

/** Every backend by name; another one is one more entry here. */
export const BACKENDS: ReadonlyMap<string, Backend> = new Map([
  [sqlite.name, sqlite],
  [postgres.name, postgres],
]);
