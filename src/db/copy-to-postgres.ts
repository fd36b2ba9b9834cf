// Copies every row of the service's SQLite database into an empty, migrated PostgreSQL one: one transaction, ids kept, verified by counts.
import type { Db } from './open.ts';
import { notifyChurchDataChanged } from './postgres/church-data-channel.ts';
import type { PostgresDatabase, SqlRunner } from './postgres/database.ts';

/** Rows of one table: in the SQLite source, and in PostgreSQL after the copy (inside the transaction, before it commits). */
export interface TableCopy {
  table: string;
  sqliteRows: number;
  postgresRows: number;
}

/** Why a copy was not made; nothing was written. */
export class CopyRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefusal';
  }
}

/**
 * Every table of the schema, parents before children (the foreign keys' order). Both schemas have
 * exactly these (schema_migrations aside); the copy refuses a source with any other table, so a
 * migration that adds one cannot be left out silently.
 */
export const COPIED_TABLES = [
  'churches',
  'events',
  'posts',
  'library_items',
  'products',
  'product_variants',
  'albums',
  'photos',
  'live_stations',
  'developers',
  'api_keys',
  'reserved_emails',
  'developer_passwords',
  'developer_identities',
  'portal_sessions',
  'one_time_tokens',
  'outgoing_mail',
] as const;

/** Rows per INSERT: a few hundred keep each statement short and well under PostgreSQL's 65,535 parameters. */
const BATCH_ROWS = 500;

/**
 * Copies `sqlite` (open, at the current schema) into `postgres` (migrated, every table empty) in
 * one transaction: ids, fingerprints, hashes and times as they are; yes/no columns become booleans;
 * the id sequences continue after the highest copied id. The transaction commits only when each
 * table holds as many rows as in SQLite; otherwise it is rolled back and CopyRefusal names the table.
 *
 * @example for (const { table, postgresRows } of await copySqliteToPostgres(sqlite, postgres)) console.log(table, postgresRows);
 */
export async function copySqliteToPostgres(sqlite: Db, postgres: PostgresDatabase): Promise<TableCopy[]> {
  checkSourceTables(sqlite);
  return postgres.transaction(async (tx) => {
    // Nothing else writes while the copy runs: another instance started too early waits rather than writes in between.
    await tx.run(`LOCK TABLE ${COPIED_TABLES.join(', ')} IN EXCLUSIVE MODE`);
    await refuseNonEmpty(tx);
    // Instances already running on the empty database hear of the churches when the copy commits.
    await notifyChurchDataChanged(tx);
    const copies: TableCopy[] = [];
    for (const table of COPIED_TABLES) {
      const sqliteRows = await copyTable(sqlite, tx, table);
      const [{ n: postgresRows }] = await tx.rows<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
      copies.push({ table, sqliteRows, postgresRows });
    }
    const mismatched = copies.filter((copy) => copy.sqliteRows !== copy.postgresRows);
    if (mismatched.length > 0) {
      const detail = mismatched.map((copy) => `${copy.table}: ${copy.sqliteRows} in SQLite, ${copy.postgresRows} in PostgreSQL`).join('; ');
      throw new CopyRefusal(`the counts differ after the copy (${detail}); nothing was written`);
    }
    return copies;
  });
}

/** The source must have exactly the tables this version knows. */
function checkSourceTables(sqlite: Db): void {
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'")
    .pluck()
    .all() as string[];
  const known = new Set<string>(COPIED_TABLES);
  const unknown = tables.filter((table) => !known.has(table));
  const missing = COPIED_TABLES.filter((table) => !tables.includes(table));
  if (unknown.length > 0 || missing.length > 0) {
    throw new CopyRefusal(
      `the SQLite database's tables are not the ones this version copies (${[...unknown.map((t) => `unknown ${t}`), ...missing.map((t) => `missing ${t}`)].join(', ')})`,
    );
  }
}

async function refuseNonEmpty(tx: SqlRunner): Promise<void> {
  const filled: string[] = [];
  for (const table of COPIED_TABLES) {
    const [{ n }] = await tx.rows<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
    if (n > 0) filled.push(`${table} (${n})`);
  }
  if (filled.length > 0) {
    throw new CopyRefusal(
      `the PostgreSQL database is not empty: ${filled.join(', ')}. Copy into a new, empty database (an instance started on it with DEMO_DATA=true has loaded the demo churches)`,
    );
  }
}

/** Copies one table in batches, in id (rowid) order; returns how many rows the source has. */
async function copyTable(sqlite: Db, tx: SqlRunner, table: string): Promise<number> {
  const columns = await tx.rows<{ name: string; type: string }>(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  const names = columns.map((column) => column.name);
  const booleans = new Set(columns.filter((column) => column.type === 'boolean').map((column) => column.name));
  const select = sqlite.prepare(`SELECT ${names.join(', ')} FROM ${table} ORDER BY rowid`);
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch.flat();
    const tuples = batch.map((_, row) => `(${names.map((__, column) => `$${row * names.length + column + 1}`).join(', ')})`);
    // The ids are the SQLite ones (identities are BY DEFAULT), so keys, sessions and links keep pointing at the same rows.
    await tx.run(`INSERT INTO ${table} (${names.join(', ')}) VALUES ${tuples.join(', ')}`, values);
    batch = [];
  };
  for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
    batch.push(names.map((name) => (booleans.has(name) ? row[name] === 1 : row[name])));
    copied++;
    if (batch.length === BATCH_ROWS) await flush();
  }
  await flush();
  if (names.includes('id')) {
    // The next id after the copied ones (the identity would otherwise start again at 1 and collide).
    await tx.rows(`SELECT setval(pg_get_serial_sequence($1, 'id'), max(id)) FROM ${table} HAVING max(id) IS NOT NULL`, [table]);
  }
  return copied;
}
