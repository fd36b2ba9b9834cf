// node-postgres, loaded when the service first opens a PostgreSQL pool rather than with the service: an instance on SQLite never pays for it.
import type Pg from 'pg';

/** The node-postgres module (its default export): Pool, Client, types. */
export type PostgresDriver = typeof Pg;

let loading: Promise<PostgresDriver> | undefined;

/**
 * node-postgres, imported once per process. A dynamic import, so that a bundle leaves it out of the
 * service's start (esbuild hoists a static import of an external package to the top of the bundle
 * even from a module it loads lazily): on SQLite, about 3 MB of heap the instance would never use (issue 28).
 *
 * @example const db = openPostgresDatabase(await loadPostgresDriver(), settings, logger);
 */
export function loadPostgresDriver(): Promise<PostgresDriver> {
  loading ??= import('pg').then((module) => module.default);
  return loading;
}
