// The PostgreSQL connection pool: bounded waits, per-connection timeouts, transactions, and errors mapped to StorageUnavailableError.
import type pg from 'pg';
import type { Logger } from '../../http/logger.ts';
import type { PostgresDriver } from './driver.ts';
import { isUnavailable, storageError } from './errors.ts';

export interface PostgresSettings {
  /** `postgres://user:password@host:5432/database` (DATABASE_URL); never logged, it may hold a password. */
  url: string;
  /** Most connections this process opens at once (DATABASE_POOL_MAX). */
  maxConnections: number;
  /** Longest wait for a connection, a new one or a free one from the pool (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /**
   * Longest a statement may run on the server, and a transaction may sit idle between statements
   * (DATABASE_STATEMENT_TIMEOUT_MS); a little later the driver itself gives up on a server that
   * does not answer at all (a hung host or a cut network, where the server's own timeout cannot act).
   */
  statementTimeoutMs: number;
  /** Shown in pg_stat_activity, so an operator sees which program holds a connection. */
  applicationName: string;
}

/** Statements through one connection or the pool. Parameters are `$1, $2…`; SQL text only in repositories. */
export interface SqlRunner {
  /**
   * The rows of one statement. With `prepareAs`, a name of its own for this text: each connection
   * parses it once, then only binds values (for the statements every request runs). Whether it is
   * also planned once is PostgreSQL's choice: after five executions it keeps its generic plan unless
   * plans made for the values cost less, as they do for `= ANY($1)` of a short array (then it plans
   * on every execution; PostgresDatabase.perRequest plans once whatever the values).
   */
  rows<Row extends pg.QueryResultRow>(text: string, values?: readonly unknown[], prepareAs?: string): Promise<Row[]>;
  /** How many rows one statement changed. */
  run(text: string, values?: readonly unknown[]): Promise<number>;
}

/**
 * A LISTEN on a connection of its own (not the pool's), and what it knows: whether notifications
 * are arriving now, and a counter that moves whenever something read before may have changed.
 */
export interface ChannelListener {
  /** True once LISTEN succeeded on a connection that has not failed since; false before, while reconnecting, and after close(). */
  readonly listening: boolean;
  /**
   * Moves on every notification, every loss of the connection and every successful (re-)LISTEN:
   * what was read while it had another value may be stale. Notifications sent while the connection
   * was down are lost, so a reconnect counts as a change.
   */
  readonly epoch: number;
  close(): Promise<void>;
}

/**
 * The service's PostgreSQL database. Every error that means "cannot answer now" arrives as
 * StorageUnavailableError (src/db/storage-unavailable.ts); others (a constraint, a bug) as the driver's.
 *
 * @example const rows = await db.rows<{ id: number }>('SELECT id FROM churches WHERE slug = $1', [slug]);
 */
export interface PostgresDatabase extends SqlRunner {
  /**
   * For the statement every keyed request runs (the key check): a pool of its own, of
   * PER_REQUEST_CONNECTIONS connections (`<name> (per request)` in pg_stat_activity), so it never
   * waits behind slower queries for a connection, and where PostgreSQL plans each prepared
   * statement once per connection (plan_cache_mode=force_generic_plan, on these connections only).
   * Under the default setting PostgreSQL plans `fingerprint = ANY($1)` again on every execution:
   * a custom plan for a short array always looks cheaper than the generic plan, which assumes ten
   * elements. That planning was a quarter of the database's CPU per keyed request (bench/PROFILE.md,
   * round 4). Only for statements whose best plan does not depend on their values.
   */
  readonly perRequest: SqlRunner;
  /** Runs `work` in one transaction (READ COMMITTED): committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection of its own, which is closed afterwards, so session settings and
   * session locks (the migrations' advisory lock) never reach the pool.
   */
  session<T>(work: (session: SqlRunner) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query within the timeouts; throws StorageUnavailableError otherwise. */
  ping(): Promise<void>;
  /**
   * Starts listening on `channel` (NOTIFY) on a dedicated connection that reconnects after a failure
   * (and after a missed heartbeat: a server that stopped answering); close() ends it, as does closing
   * the database.
   */
  listen(channel: string, options?: ListenOptions): ChannelListener;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** How often the listening connection is checked with a trivial query (default 5 s). */
  heartbeatMs?: number;
  /** First wait before reconnecting; it doubles up to 5 s (default 100 ms). */
  retryMs?: number;
}

/**
 * Opens a pool (no connection is made before the first query). A connection that breaks while idle
 * (the server restarted) is dropped and logged, never thrown at the process.
 */
export function openPostgresDatabase(driver: PostgresDriver, settings: PostgresSettings, logger?: Logger): PostgresDatabase {
  const pool = poolOf(driver, settings, { max: settings.maxConnections, application_name: settings.applicationName }, logger);
  const perRequestPool = poolOf(
    driver,
    settings,
    {
      max: PER_REQUEST_CONNECTIONS,
      application_name: `${settings.applicationName} (per request)`,
      // A session setting, sent before the pool hands the new connection out (a startup `options`
      // would replace the operator's PGOPTIONS). Without it the statements still run, planned each time.
      onConnect: (client) =>
        client.query('SET plan_cache_mode = force_generic_plan').then(
          () => undefined,
          (error: unknown) => logger?.warn({ err: error }, 'plan_cache_mode not set on a per-request connection'),
        ),
    },
    logger,
  );
  let closed: Promise<void> | undefined;
  const listeners = new Set<ChannelListener>();

  /**
   * A connection of the pool for several statements. While it is out of the pool, an error the
   * server sends on its own (it ended an idle transaction, it shut down) marks it broken instead of
   * reaching the process as an unhandled 'error' event; the statement that meets it fails as usual.
   */
  const checkout = async () => {
    const client = await mapped(() => pool.connect());
    const connection = {
      client,
      broken: false,
      release(destroy: boolean) {
        client.release(destroy);
        client.removeListener('error', onError);
      },
    };
    const onError = (error: Error) => {
      connection.broken = true;
      logger?.warn({ err: error }, 'a PostgreSQL connection failed while in use');
    };
    client.on('error', onError);
    return connection;
  };

  const mapped = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw storageError(error);
    }
  };

  return {
    ...runnerOf(pool),
    perRequest: runnerOf(perRequestPool),

    async transaction(work) {
      const connection = await checkout();
      try {
        await connection.client.query('BEGIN');
        const result = await work(runnerOf(connection.client));
        await connection.client.query('COMMIT');
        return result;
      } catch (error) {
        if (isUnavailable(error)) connection.broken = true;
        else await connection.client.query('ROLLBACK').catch(() => (connection.broken = true));
        throw storageError(error);
      } finally {
        // A connection that failed mid-transaction is closed rather than handed to the next request.
        connection.release(connection.broken);
      }
    },

    async session(work) {
      const connection = await checkout();
      try {
        return await work(runnerOf(connection.client));
      } catch (error) {
        throw storageError(error);
      } finally {
        connection.release(true);
      }
    },

    async ping() {
      await mapped(() => pool.query('SELECT 1'));
    },

    listen(channel, options = {}) {
      const listener = listenOn(driver, settings, channel, options, logger, () => listeners.delete(listener));
      listeners.add(listener);
      return listener;
    },

    close() {
      closed ??= Promise.all([pool.end(), perRequestPool.end(), ...[...listeners].map((listener) => listener.close())]).then(
        () => undefined,
      );
      return closed;
    },
  };
}

/** Connections of the per-request pool (PostgresDatabase.perRequest): two, so one statement stuck until its timeout does not hold up every key check. */
export const PER_REQUEST_CONNECTIONS = 2;

const MAX_RETRY_MS = 5_000;

/**
 * One LISTEN connection, kept up: connect, LISTEN, then a heartbeat; on any failure the connection
 * is dropped (listening false, epoch moved), logged once per outage, and made again after a backoff.
 */
function listenOn(
  driver: PostgresDriver,
  settings: PostgresSettings,
  channel: string,
  options: ListenOptions,
  logger: Logger | undefined,
  onClose: () => void,
): ChannelListener {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const firstRetryMs = options.retryMs ?? 100;
  let client: pg.Client | undefined;
  let listening = false;
  let epoch = 0;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (work: () => void, ms: number) => {
    clearTimeout(timer);
    timer = closed ? undefined : setTimeout(work, ms);
    timer?.unref();
  };

  const lost = (from: pg.Client, error: unknown) => {
    if (client !== from) return;
    client = undefined;
    const wasListening = listening;
    listening = false;
    epoch++;
    from.end().catch(() => undefined);
    if (closed) return;
    if (wasListening || failures === 0) {
      logger?.warn(
        { err: error, channel },
        'PostgreSQL notifications lost; data they keep fresh is read from the database until they are back',
      );
    }
    failures++;
    schedule(connect, Math.min(firstRetryMs * 2 ** (failures - 1), MAX_RETRY_MS));
  };

  const heartbeat = (from: pg.Client) => {
    schedule(() => {
      from.query('SELECT 1').then(
        () => client === from && heartbeat(from),
        (error: unknown) => lost(from, error),
      );
    }, heartbeatMs);
  };

  const connect = () => {
    if (closed) return;
    const next = new driver.Client({
      connectionString: settings.url,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      query_timeout: settings.statementTimeoutMs + 1_000,
      application_name: `${settings.applicationName} (listener)`,
      keepAlive: true,
    });
    client = next;
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, new Error('the listening connection ended')));
    next.on('notification', (message) => {
      if (client === next && message.channel === channel) epoch++;
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${next.escapeIdentifier(channel)}`))
      .then(
        () => {
          if (client !== next) {
            next.end().catch(() => undefined);
            return;
          }
          if (failures > 0) logger?.info({ channel }, 'PostgreSQL notifications are back');
          failures = 0;
          listening = true;
          epoch++;
          heartbeat(next);
        },
        (error: unknown) => lost(next, error),
      );
  };

  connect();
  return {
    get listening() {
      return listening;
    },
    get epoch() {
      return epoch;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      const last = client;
      client = undefined;
      listening = false;
      epoch++;
      onClose();
      await last?.end().catch(() => undefined);
    },
  };
}

/**
 * A pool (no connection is made before the first query) with the settings every connection of the
 * service has, and `own` (its size, its name in pg_stat_activity, what a new connection runs first).
 */
function poolOf(
  driver: PostgresDriver,
  settings: PostgresSettings,
  own: Pick<pg.PoolConfig, 'max' | 'application_name' | 'onConnect'>,
  logger: Logger | undefined,
): pg.Pool {
  const pool = new driver.Pool({
    connectionString: settings.url,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: settings.statementTimeoutMs,
    idle_in_transaction_session_timeout: settings.statementTimeoutMs,
    query_timeout: settings.statementTimeoutMs + 1_000,
    keepAlive: true,
    types: { getTypeParser: typeParserOf(driver) },
    ...own,
  });
  pool.on('error', (error) => logger?.warn({ err: error }, 'an idle PostgreSQL connection failed; it is replaced on the next query'));
  return pool;
}

/** The two statement kinds over a pool or a client; every failure goes through storageError. */
function runnerOf(target: pg.Pool | pg.PoolClient): SqlRunner {
  return {
    async rows<Row extends pg.QueryResultRow>(text: string, values: readonly unknown[] = [], prepareAs?: string) {
      try {
        const query =
          prepareAs === undefined ? { text, values: values as unknown[] } : { name: prepareAs, text, values: values as unknown[] };
        return (await target.query<Row>(query)).rows;
      } catch (error) {
        throw storageError(error);
      }
    },
    async run(text, values = []) {
      try {
        return (await target.query(text, values as unknown[])).rowCount ?? 0;
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}

/**
 * bigint (ids, count(*)) as a JavaScript number, as SQLite gives it: the driver's default is a
 * string, because a bigint may exceed 2^53; ids and counts of this service stay far below.
 */
function typeParserOf(driver: PostgresDriver): typeof pg.types.getTypeParser {
  const parser = (oid: number, format?: string): unknown => {
    if (oid === driver.types.builtins.INT8 && format !== 'binary') return (value: string) => Number(value);
    return driver.types.getTypeParser(oid, format as 'text');
  };
  return parser as typeof pg.types.getTypeParser;
}
