// The storage backends a run can measure the service on (`--backend NAME`): each gives the variables that point the service and the CLI at it.

export interface PreparedBackend {
  /** Variables for every service instance and the CLI, on top of the run's own. */
  env: Record<string, string>;
  /** Stops and removes what prepare made (a database server…); the run's folder itself is removed by the run. */
  close(): Promise<void>;
}

export interface Backend {
  name: string;
  description: string;
  /** Makes the backend ready in `workDir`, a fresh folder of this run. */
  prepare(workDir: string): Promise<PreparedBackend>;
}

/** SQLite in the run's folder: the service's default, what `npm start` runs with. */
const sqlite: Backend = {
  name: 'sqlite',
  description: 'embedded SQLite (WAL) in a fresh file',
  async prepare(workDir) {
    return { env: { DATABASE_PATH: `${workDir}/church.sqlite` }, close: async () => {} };
  },
};

/** Every backend by name; another one is one more entry here. */
export const BACKENDS: ReadonlyMap<string, Backend> = new Map([[sqlite.name, sqlite]]);
