// Public churches by slug, kept while the SQLite database is unchanged: PRAGMA data_version for commits by other connections, clear() for this one's.
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/open.ts';
import type { ChurchRecord } from '../records.ts';

export interface PublicChurchCacheLimits {
  entries: number;
  /** Approximate: the UTF-16 size of the record's strings, plus a little per field. */
  bytes: number;
}

export interface PublicChurchCache {
  /**
   * The public church with this slug: the kept record (frozen) while no commit changed the
   * database since it was read, else `load(slug)`'s, kept. An unknown slug is not kept (any client
   * can send any number of them): it is loaded every time.
   */
  get(slug: string, load: (slug: string) => ChurchRecord | undefined): ChurchRecord | undefined;
  /** Forgets every record: after a write on this connection, which PRAGMA data_version does not count. */
  clear(): void;
}

/** A thousand churches of a few KB each: the whole of a large directory, in a few MB. */
export const PUBLIC_CHURCH_CACHE_LIMITS: PublicChurchCacheLimits = { entries: 1000, bytes: 4 * 1024 * 1024 };

/**
 * `PRAGMA data_version` changes whenever another connection (the CLI's import, another service
 * process on the same file) commits; it is read on every get, so a record is never served after
 * such a commit. It costs a fraction of the church's own query. Writes through this connection do
 * not change it: the repository calls clear() after each. Past the limits, the least recently used go first.
 *
 * @example const cache = createPublicChurchCache(db); cache.get('grace-paris', loadFromDb)
 */
export function createPublicChurchCache(db: Db, limits: PublicChurchCacheLimits = PUBLIC_CHURCH_CACHE_LIMITS): PublicChurchCache {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const kept = new LRUCache<string, ChurchRecord>({ max: limits.entries, maxSize: limits.bytes });
  let seenVersion: number | undefined;

  return {
    get(slug, load) {
      // Read before the church: a record loaded after it is at least as new as this version.
      const version = dataVersion.get();
      if (version !== seenVersion) {
        kept.clear();
        seenVersion = version;
      }
      const hit = kept.get(slug);
      if (hit) return hit;
      const church = load(slug);
      if (!church) return undefined;
      const size = approximateBytes(church);
      if (size > limits.bytes) return church;
      const frozen = Object.freeze(church);
      kept.set(slug, frozen, { size });
      return frozen;
    },
    clear: () => kept.clear(),
  };
}

/** Bytes a record holds, near enough for a bound: two per string character, sixteen per field. */
function approximateBytes(church: ChurchRecord): number {
  let bytes = 0;
  for (const value of Object.values(church)) bytes += 16 + (typeof value === 'string' ? 2 * value.length : 0);
  return bytes;
}
