// The service's own readiness checks: its database answers a query, a Bible build is loaded, the rate-limit Redis answers.
import fs from 'node:fs';
import type { BibleSource } from '../bible/source.ts';
import type { Config } from '../config.ts';
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
 * ready; the reason (not built, or tree and database of different builds) is the check's detail,
 * with where the service looked (BIBLE_PUBLIC_DIR, said when that folder does not exist, and
 * BIBLE_DB_PATH): a build made into another folder is the usual cause. Those paths are told to the
 * operator's probe only, never in the Bible endpoints' own 503. Left out with READYZ_BIBLE=false.
 */
export function bibleCheck(
  bible: Pick<BibleSource, 'status'>,
  where: Pick<Config, 'biblePublicDir' | 'bibleDatabasePath'>,
): ReadinessCheck {
  return {
    name: 'bible',
    run() {
      const status = bible.status();
      if (!status.available) {
        const folder = fs.existsSync(where.biblePublicDir) ? where.biblePublicDir : `${where.biblePublicDir} (no such folder)`;
        throw new Error(`${status.reason} Looked in BIBLE_PUBLIC_DIR ${folder} and BIBLE_DB_PATH ${where.bibleDatabasePath}.`);
      }
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
