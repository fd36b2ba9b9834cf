// Public churches by slug, kept while PostgreSQL's notifications say the church data is unchanged; read from the database whenever they cannot say.
import type { ChannelListener } from '../../db/postgres/database.ts';
import { KEPT_CHURCH_LIMITS, type KeptChurchLimits, keptChurches } from '../kept-churches.ts';
import type { ChurchRecord } from '../records.ts';

export interface ListeningChurchCache {
  /**
   * The public church with this slug: the kept record (frozen) while the listener has heard of no
   * change since it was read, else `load(slug)`'s, kept only if the listener was listening all the
   * way through the load. While it is not listening (starting, the connection lost), nothing is
   * kept and every call loads. An unknown slug is never kept.
   */
  get(slug: string, load: (slug: string) => Promise<ChurchRecord | undefined>): Promise<ChurchRecord | undefined>;
}

/**
 * A church kept from one epoch of the listener (ChannelListener.epoch) is served only in that same
 * epoch: a notification, a lost connection or a new LISTEN each move it, and the first get after
 * that forgets everything. A load that straddles a move is returned but not kept, so a record read
 * before an import committed is never kept past the import's notification.
 *
 * @example const cache = createListeningChurchCache(db.listen(CHURCH_DATA_CHANNEL)); // db/postgres/church-data-channel.ts
 * await cache.get(slug, loadFromDb)
 */
export function createListeningChurchCache(listener: ChannelListener, limits: KeptChurchLimits = KEPT_CHURCH_LIMITS): ListeningChurchCache {
  const kept = keptChurches(limits);
  let keptEpoch = listener.epoch;

  return {
    async get(slug, load) {
      const epoch = listener.epoch;
      if (epoch !== keptEpoch) {
        kept.clear();
        keptEpoch = epoch;
      }
      if (!listener.listening) return load(slug);
      const hit = kept.get(slug);
      if (hit) return hit;
      const church = await load(slug);
      if (!church || !listener.listening || listener.epoch !== epoch) return church;
      return kept.keep(slug, church);
    },
  };
}
