// Public churches by slug, kept while the SQLite database is unchanged: PRAGMA data_version (once per event-loop turn) for commits by other connections, clear() for this one's.
import type { Db } from '../../db/open.ts';
import { KEPT_CHURCH_LIMITS, type KeptChurchLimits, keptChurches } from '../kept-churches.ts';
import type { ChurchRecord } from '../records.ts';

export type PublicChurchCacheLimits = KeptChurchLimits;

export interface PublicChurchCache {
  /**
   * The public church with this slug: the kept record (frozen) while no commit changed the
   * database before this turn of the event loop since it was read, else `load(slug)`'s, kept. An unknown slug is not kept (any client
   * can send any number of them): it is loaded every time.
   */
  get(slug: string, load: (slug: string) => ChurchRecord | undefined): ChurchRecord | undefined;
  /** Forgets every record: after a write on this connection, which PRAGMA data_version does not count. */
  clear(): void;
}

export const PUBLIC_CHURCH_CACHE_LIMITS: PublicChurchCacheLimits = KEPT_CHURCH_LIMITS;

/**
 * `PRAGMA data_version` changes whenever another connection (the CLI's import, another service
 * process on the same file) commits. It is read by the first get of each turn of the event loop
 * (the requests parsed from one read of the sockets), so a record is never served in a turn that
 * began after such a commit: another process's import shows from the next turn, which no HTTP
 * client can tell from "the next statement". Each read is a read transaction of its own (two
 * `fcntl` locks): once per turn instead of once per request (issue 28, the lead's decision). Writes
 * through this connection do not change it: the repository calls clear() after each, at once.
 * Past the limits, the least recently used go first.
 *
 * @example const cache = createPublicChurchCache(db); cache.get('grace-paris', loadFromDb)
 */
export function createPublicChurchCache(db: Db, limits: PublicChurchCacheLimits = PUBLIC_CHURCH_CACHE_LIMITS): PublicChurchCache {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const kept = keptChurches(limits);
  let seenVersion: number | undefined;
  /** Whether data_version was read in this turn of the event loop; the check phase of the next turn forgets it. */
  let readThisTurn = false;
  const nextTurn = () => {
    readThisTurn = false;
  };

  return {
    get(slug, load) {
      if (!readThisTurn) {
        // Read before the church: a record loaded after it is at least as new as this version.
        const version = dataVersion.get();
        readThisTurn = true;
        setImmediate(nextTurn);
        if (version !== seenVersion) {
          kept.clear();
          seenVersion = version;
        }
      }
      const hit = kept.get(slug);
      if (hit) return hit;
      const church = load(slug);
      return church && kept.keep(slug, church);
    },
    clear: () => kept.clear(),
  };
}
