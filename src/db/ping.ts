// The readiness query of the church database: the file is open and its schema is there.
import type { Db } from './open.ts';

/**
 * Throws when the database cannot answer: closed, unreadable, or without the migrations table
 * (another file put in its place). A read in WAL mode never waits for a writer.
 */
export function pingDatabase(db: Db): () => void {
  let statement: ReturnType<Db['prepare']> | undefined;
  return () => {
    statement ??= db.prepare('SELECT count(*) FROM schema_migrations');
    statement.pluck().get();
  };
}
