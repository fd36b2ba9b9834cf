// Public church records kept in the process, bounded by count and bytes: the store under both backends' church caches.
import { LRUCache } from 'lru-cache';
import type { ChurchRecord } from './records.ts';

export interface KeptChurchLimits {
  entries: number;
  /** Approximate: the UTF-16 size of the record's strings, plus a little per field. */
  bytes: number;
}

/** A thousand churches of a few KB each: the whole of a large directory, in a few MB. */
export const KEPT_CHURCH_LIMITS: KeptChurchLimits = { entries: 1000, bytes: 4 * 1024 * 1024 };

export interface KeptChurches {
  get(slug: string): ChurchRecord | undefined;
  /** Keeps the record frozen (callers and the answers' bodies share it) and returns it; one larger than the byte limit is returned unkept. */
  keep(slug: string, church: ChurchRecord): ChurchRecord;
  clear(): void;
}

/**
 * Records by slug; past the limits, the least recently used go first. Deciding when a record may
 * be stale is the caller's (SQLite's data_version, PostgreSQL's notifications).
 *
 * @example const kept = keptChurches(); kept.get(slug) ?? kept.keep(slug, loaded)
 */
export function keptChurches(limits: KeptChurchLimits = KEPT_CHURCH_LIMITS): KeptChurches {
  const kept = new LRUCache<string, ChurchRecord>({ max: limits.entries, maxSize: limits.bytes });
  return {
    get: (slug) => kept.get(slug),
    keep(slug, church) {
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
