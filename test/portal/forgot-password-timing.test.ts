// Forgot-password takes the same time for an address with an account and one without: a rank test over hundreds of interleaved samples.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openStorage, type Storage } from '../../src/storage.ts';
import { PortalClient } from './portal-client.ts';
import { type PortalTestServer, startPortalTestServer } from './portal-server.ts';

/** Samples of each kind. */
const SAMPLES = 300;
/**
 * Bound on |z| of the Mann-Whitney test. With equal distributions z is close to standard normal,
 * so |z| ≥ 4 happens in 6 runs out of 100,000. The leak the issue measured (a known address
 * answering 0.3 ms slower, read right 69% of the time) is an effect of 0.69 - 0.5 on the
 * probability that one sample exceeds the other; over 300 + 300 samples that probability's
 * standard error is sqrt(601 / (12 × 300 × 300)) = 0.024, so that leak gives z ≈ 8: twice the bound.
 */
const MAX_Z = 4;

/**
 * Mann-Whitney U of `a` against `b`, as a z-score (normal approximation, midranks for ties):
 * positive when `a` tends to be larger.
 */
function mannWhitneyZ(a: readonly number[], b: readonly number[]): number {
  const all = [...a.map((value) => ({ value, fromA: true })), ...b.map((value) => ({ value, fromA: false }))].sort(
    (x, y) => x.value - y.value,
  );
  let rankSumA = 0;
  for (let start = 0; start < all.length; ) {
    let end = start;
    while (end + 1 < all.length && all[end + 1].value === all[start].value) end += 1;
    const midrank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) if (all[i].fromA) rankSumA += midrank;
    start = end + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  return (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
}

const median = (values: readonly number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

describe('the Mann-Whitney z-score', () => {
  it('is about 0 for samples alike and large for shifted ones', () => {
    const base = Array.from({ length: 300 }, (_, i) => ((i * 7919) % 300) / 300);
    expect(Math.abs(mannWhitneyZ(base, [...base].reverse()))).toBeLessThan(0.01);
    expect(
      mannWhitneyZ(
        base.map((value) => value + 0.5),
        base,
      ),
    ).toBeGreaterThan(10);
    expect(
      mannWhitneyZ(
        base,
        base.map((value) => value + 0.5),
      ),
    ).toBeLessThan(-10);
  });
});

describe('a password reset request', () => {
  let server: PortalTestServer;
  let storage: Storage;
  beforeAll(async () => {
    // The sender looks at the queue at start and then not for an hour: nothing runs beside the requests measured.
    server = await startPortalTestServer({ MAIL_PER_CLIENT_PER_HOUR: '100000', MAIL_POLL_INTERVAL_MS: '3600000' });
    storage = await openStorage(loadConfig({ DATABASE_PATH: path.join(server.dir, 'church.sqlite') }));
    for (let i = 0; i < SAMPLES; i++) {
      await server.services.accountService.createDeveloper({ name: 'Known', email: `known-${i}@example.org`, verified: true });
    }
  }, 120_000);
  afterAll(async () => {
    await storage?.close();
    await server?.close();
  });

  it(`takes the same time whether or not an account has the address (${SAMPLES} samples each, interleaved)`, async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/forgot-password');
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await client.post('/portal/forgot-password', { email });
      const elapsed = performance.now() - started;
      expect(answer.status).toBe(200);
      return elapsed;
    };
    for (let i = 0; i < 20; i++) await timed(`warm-up-${i}@example.org`);

    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Each pair in a random order, so drift in the machine's speed falls on both kinds alike.
      if (Math.random() < 0.5) {
        known.push(await timed(`known-${i}@example.org`));
        unknown.push(await timed(`unknown-${i}@example.org`));
      } else {
        unknown.push(await timed(`unknown-${i}@example.org`));
        known.push(await timed(`known-${i}@example.org`));
      }
    }
    const z = mannWhitneyZ(known, unknown);
    console.info(
      `forgot-password: median ${median(known).toFixed(3)} ms with an account, ${median(unknown).toFixed(3)} ms without; Mann-Whitney z = ${z.toFixed(2)}`,
    );
    expect(Math.abs(z)).toBeLessThan(MAX_Z);
    // Each request, with an account or without, did the same: one row queued, nothing looked up or sent.
    expect(await storage.mail.counts()).toEqual({ pending: 20 + 2 * SAMPLES, sent: 0, failed: 0 });
  }, 300_000);
});
