// The service's own readiness checks: its database answers a query, a Bible build is loaded, the rate-limit Redis answers.
import type { BibleSource } from '../bible/source.ts';
import type { LimitStores } from '../limits/stores.ts';
import type { ReadinessCheck } from './readiness.ts';

/** The church database answers a trivial query (`ping` runs one: src/db/ping.ts for SQLite, a pool query for PostgreSQL). */
export function databaseCheck(ping: () => unknown): ReadinessCheck {
  return {
    name: 'database',
    async run() {
      await ping();
      return undefined;
    },
  };
}

/**
 * A Bible build is loaded. Without one every Bible endpoint answers 503, so the instance is not
 * ready; the reason (not built, or tree and database of different builds) is the check's detail.
 */
export function bibleCheck(bible: Pick<BibleSource, 'status'>): ReadinessCheck {
  return {
    name: 'bible',
    run() {
      const status = bible.status();
      if (!status.available) throw new Error(status.reason);
      return `build ${status.buildHash}`;
    },
  };
}

/** The rate-limit Redis answers PING; only when REDIS_URL is set (the memory stores have nothing to check). */
export function redisCheck(stores: Pick<LimitStores, 'ping'>): ReadinessCheck[] {
  const { ping } = stores;
  if (ping === undefined) return [];
  return [
    {
      name: 'redis',
      async run() {
        await ping();
        return undefined;
      },
    },
  ];
}
