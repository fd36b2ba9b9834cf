// "Last used" of a key is handed to the repository at most once a minute per key, after the request's turn, whatever the number of requests.
import { describe, expect, it } from 'vitest';
import { LAST_USED_INTERVAL_MS } from '../../src/accounts/repository.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createKeyAuthenticator } from '../../src/keys/auth.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';
import { generateKey } from '../../src/keys/format.ts';
import { fixedClock } from '../helpers/clock.ts';

const T0 = new Date('2026-06-15T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Key auth over two active keys, the clock in the test's hands, every markUsed call kept. */
function authenticator() {
  const fingerprinter = createFingerprinter('s'.repeat(32));
  const keys = [generateKey(), generateKey()];
  const ids = new Map(keys.map((key, index) => [fingerprinter.fingerprint(key), index + 1]));
  const marked: { keyId: number; when: string }[] = [];
  const clock = fixedClock(T0);
  const auth = createKeyAuthenticator({
    accountRepository: {
      async activeKeyByFingerprint(fingerprint) {
        const id = ids.get(fingerprint);
        return id === undefined ? undefined : { id, developerId: 1 };
      },
      async markUsed(keyId, when) {
        marked.push({ keyId, when: when.toISOString() });
        return true;
      },
    },
    fingerprinter,
    invalidKeyThrottle: { refusalFor: async (_address, problem) => problem },
    clock,
    logger: createLogger('silent'),
  });
  const use = async (key: string) => {
    const outcome = await auth.authenticate(`Bearer ${key}`, '127.0.0.1');
    expect(outcome.refused).toBeUndefined();
  };
  return { auth, keys: keys as [string, string], marked, clock, use };
}

describe('"last used" of a key', () => {
  it('is handed over once for many requests within a minute, after the request, then again once the minute is over', async () => {
    const { keys, marked, clock, use } = authenticator();
    await use(keys[0]);
    // Off the request path: nothing yet when the authentication has answered.
    expect(marked).toEqual([]);
    await nextTurn();
    expect(marked).toEqual([{ keyId: 1, when: T0.toISOString() }]);
    for (const ms of [1, 1000, 30_000, LAST_USED_INTERVAL_MS - 1]) {
      clock.set(at(ms));
      for (let request = 0; request < 20; request++) await use(keys[0]);
    }
    await nextTurn();
    expect(marked).toHaveLength(1);
    clock.set(at(LAST_USED_INTERVAL_MS));
    await use(keys[0]);
    await use(keys[0]);
    await nextTurn();
    expect(marked).toEqual([
      { keyId: 1, when: T0.toISOString() },
      { keyId: 1, when: at(LAST_USED_INTERVAL_MS).toISOString() },
    ]);
  });

  it('is counted per key: another key used in the same minute is recorded too', async () => {
    const { keys, marked, clock, use } = authenticator();
    await use(keys[0]);
    clock.set(at(5_000));
    await use(keys[1]);
    await use(keys[0]);
    await use(keys[1]);
    await nextTurn();
    expect(marked.map((entry) => entry.keyId)).toEqual([1, 2]);
  });

  it('is no memory of validity: a key that stops being active is refused on its next request', async () => {
    const { auth, keys, use } = authenticator();
    await use(keys[0]);
    const unknown = generateKey();
    expect((await auth.authenticate(`Bearer ${unknown}`, '127.0.0.1')).refused?.status).toBe(401);
  });
});
