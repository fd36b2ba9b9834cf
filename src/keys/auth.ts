// The church endpoints' key auth: Bearer sk_live_ key → active key, or a 401 problem counted by the invalid-key throttle.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Problem } from '../../build/contract/problems.ts';
import { LAST_USED_INTERVAL_MS } from '../accounts/repository.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../http/logger.ts';
import { serviceProblems } from '../http/problems.ts';
import type { Fingerprinter } from './fingerprint.ts';
import { isWellFormedKey, KEY_PREFIX } from './format.ts';

/** The two key lookups key auth makes (an AccountRepository, accounts/repository.ts, has them). */
export interface ActiveKeyLookup {
  /** The active key with this fingerprint, undefined when none (unknown or revoked). */
  activeKeyByFingerprint(fingerprint: string): Promise<{ id: number; developerId: number } | undefined>;
  /** Records that the key was used at `when` (its "last used"); may skip a write it made recently. */
  markUsed(keyId: number, when: Date): Promise<unknown>;
}

/**
 * What every refusal goes through, per client address (the invalid-key throttle,
 * limits/invalid-key-throttle.ts, made by the composition root): the 401 problem, counted, or the
 * problem that replaces it once the address is over its limit.
 */
export interface RefusalThrottle {
  refusalFor(address: string | undefined, unauthorized: Problem): Promise<Problem>;
}

/** What key auth is made from. */
export interface KeyAuthDependencies {
  accountRepository: ActiveKeyLookup;
  fingerprinter: Fingerprinter;
  invalidKeyThrottle: RefusalThrottle;
  clock: Clock;
  logger: Logger;
}

/** What a successful authentication tells the rest of the request: the access line's key id, the key limit's counting key. */
export interface KeyAuthLocals {
  /** Id of the API key (never the key itself); the per-key rate limit counts by it. */
  apiKeyId: number;
  /** Owner of the key. */
  apiKeyDeveloperId: number;
  /** Opaque per-key value the per-key rate limit counts by (it shows in RateLimit-Policy, so not the id). */
  apiKeyRateLimitKey: string;
}

/** What authenticating one request decided: the key's locals, or the problem the request is refused with. */
export type KeyAuthOutcome = { locals: KeyAuthLocals; refused?: undefined } | { refused: Problem };

/** One app's key auth (the dispatcher's key check, src/http/dispatcher.ts): one throttle, one count. */
export interface KeyAuthenticator {
  /**
   * Authenticates a request by its Authorization header, from `address` (the client address as
   * req.ip gives it); a storage failure rejects (answered 503/500 by the dispatcher's error mapping).
   */
  authenticate(authorization: string | undefined, address: string | undefined): Promise<KeyAuthOutcome>;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Authenticates a request by `Authorization: Bearer sk_live_…`.
 * Order: header shape, key format and checksum (no database work for a malformed key), then the
 * fingerprint lookup. A refusal goes through the per-address throttle of invalid keys: a 401 counts
 * one failure for the address, and an address already over its limit gets 429 instead. A valid key
 * never meets the throttle, whatever its address sent before. The key's validity is looked up on
 * every request, never remembered: a revoked key fails at once.
 */
export function createKeyAuthenticator(dependencies: KeyAuthDependencies): KeyAuthenticator {
  const { accountRepository: keys, fingerprinter, invalidKeyThrottle: throttle, clock, logger } = dependencies;
  const rateLimitKey = rateLimitKeys();
  const recordUse = lastUseRecorder(keys, clock, logger);
  const refuse = async (address: string | undefined, problem: Problem): Promise<KeyAuthOutcome> => ({
    refused: await throttle.refusalFor(address, problem),
  });
  return {
    async authenticate(header, address) {
      if (header === undefined || header.trim() === '') return refuse(address, serviceProblems.apiKeyMissing(KEY_PREFIX));
      const match = BEARER.exec(header);
      if (!match) return refuse(address, serviceProblems.authorizationNotBearer(KEY_PREFIX));
      const token = match[1];
      if (!isWellFormedKey(token)) return refuse(address, serviceProblems.apiKeyMalformed(KEY_PREFIX));
      const fingerprint = fingerprinter.fingerprint(token);
      const key = await keys.activeKeyByFingerprint(fingerprint);
      if (!key) return refuse(address, serviceProblems.apiKeyUnknown());
      recordUse(fingerprint, key.id);
      return { locals: { apiKeyId: key.id, apiKeyDeveloperId: key.developerId, apiKeyRateLimitKey: rateLimitKey(fingerprint) } };
    },
  };
}

/** Keys whose last hand-over of "last used" is remembered: more than the active keys of a busy minute. */
const LAST_USES_KEPT = 10_000;

/**
 * "Last used" of a key handed to the repository at most once per LAST_USED_INTERVAL_MS per key,
 * after this turn of the event loop: bookkeeping, not part of the answer, and never a wait for a
 * lock. This is the service's only in-process guard (the repositories keep the one in their UPDATE,
 * which holds across processes sharing the database); it spares each request of a busy key a Date,
 * a closure, a timer, a promise and a statement. Keyed by fingerprint, never reused, so a new key
 * that gets a deleted key's id is recorded at once. It remembers when a use was recorded, never
 * whether a key is valid.
 */
function lastUseRecorder(keys: ActiveKeyLookup, clock: Clock, logger: Logger): (fingerprint: string, keyId: number) => void {
  const handedOver = new Map<string, number>();
  return (fingerprint, keyId) => {
    const usedAt = clock.now();
    const at = usedAt.getTime();
    const previous = handedOver.get(fingerprint);
    if (previous !== undefined && at - previous < LAST_USED_INTERVAL_MS && at >= previous) return;
    // Forgetting every key at once only lets each one write once more: the repository's guard still holds.
    if (handedOver.size >= LAST_USES_KEPT) handedOver.clear();
    handedOver.set(fingerprint, at);
    setImmediate(() => keys.markUsed(keyId, usedAt).catch((error: unknown) => logger.warn({ err: error }, '"last used" not recorded')));
  };
}

/** Counting keys remembered (each one a SHA-256 spared per request): more than the active keys of a busy minute. */
const RATE_LIMIT_KEYS_KEPT = 10_000;

/**
 * The per-key limiter's counting key, which also becomes the RateLimit-Policy partition key the
 * client sees: derived from the (secret-keyed) fingerprint, so it tells nothing about the key's
 * database id or how many keys exist, and truncated so the fingerprint itself never leaves.
 * Remembered per fingerprint for the most recent keys: a value derived from the fingerprint, never
 * whether the key is valid (that is looked up on every request).
 */
function rateLimitKeys(): (fingerprint: string) => string {
  const known = new LRUCache<string, string>({ max: RATE_LIMIT_KEYS_KEPT });
  return (fingerprint) => {
    let key = known.get(fingerprint);
    if (key === undefined) {
      key = createHash('sha256').update(`rate-limit:${fingerprint}`).digest('base64url').slice(0, 22);
      known.set(fingerprint, key);
    }
    return key;
  };
}
