// Closed-loop runs compared in turns: each run measured in every turn, the order rotated, the turns summed into one result.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedLoopInTurns } from '../../../scripts/bench/closed-loop.ts';

describe('closedLoopInTurns against two servers', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  /** A server that answers `name` and notes, in `log`, each answer's server in the order answered. */
  async function serve(name: string, log: string[], status = 200): Promise<string> {
    const server = http.createServer((_req, res) => {
      log.push(name);
      res.writeHead(status).end(name);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('alternates the runs turn by turn, rotating the order, and sums each run over its turns', async () => {
    const log: string[] = [];
    const [a, b] = [await serve('a', log), await serve('b', log)];
    // autocannon stops on its next one-second tick: turns of 1 s.
    const run = (id: string, baseUrl: string) => ({ id, options: { baseUrl, paths: ['/'], durationS: 2, warmUpS: 0, connections: 2 } });
    const results = await closedLoopInTurns([run('a', a), run('b', b)], 2);

    // Stretches of the same server's answers, in order: a then b, then b then a (the order rotated).
    expect(stretches(log)).toEqual(['a', 'b', 'a']);
    for (const id of ['a', 'b']) {
      const result = results.get(id)!;
      const received = log.filter((name) => name === id).length;
      // Every answer counted; a request in flight when a turn stopped reached the server uncounted (two connections, two turns).
      expect(result.statusCodes['200']).toBeLessThanOrEqual(received);
      expect(result.statusCodes['200']).toBeGreaterThanOrEqual(received - 4);
      expect(Object.keys(result.statusCodes)).toEqual(['200']);
      // The whole run's rate is its answers over its seconds: between its slowest and its fastest turn's.
      const [first, second] = result.requestsPerSecondByTurn!;
      expect(result.requestsPerSecondByTurn).toHaveLength(2);
      // (A millionth of slack for rounding when the two turns ran at the same rate.)
      expect(result.requestsPerSecond).toBeGreaterThanOrEqual(Math.min(first!, second!) * (1 - 1e-6));
      expect(result.requestsPerSecond).toBeLessThanOrEqual(Math.max(first!, second!) * (1 + 1e-6));
      expect(result.non2xx + result.errors).toBe(0);
    }
  });

  it('measures a run alone in one window whatever the turns asked, and counts answers other than 2xx', async () => {
    const log: string[] = [];
    const url = await serve('gone', log, 404);
    const options = { baseUrl: url, paths: ['/'], durationS: 1, warmUpS: 0, connections: 2 };
    const results = await closedLoopInTurns([{ id: 'gone', options }], 5);
    const result = results.get('gone')!;
    expect(result.requestsPerSecondByTurn).toBeUndefined();
    expect(Object.keys(result.statusCodes)).toEqual(['404']);
    expect(result.non2xx).toBe(result.statusCodes['404']);
    expect(result.non2xx).toBeGreaterThanOrEqual(log.length - 2);
    expect(result.non2xx).toBeGreaterThan(0);
  });
});

/**
 * The servers in the order they answered, one entry per stretch of answers from the same server. A
 * stretch of fewer than three is left out: a request one run had in flight when it stopped may be
 * read by its server once the next run has begun (two connections, so at most two).
 */
function stretches(log: readonly string[]): string[] {
  const runs: { name: string; length: number }[] = [];
  for (const name of log) {
    if (runs.at(-1)?.name === name) runs.at(-1)!.length++;
    else runs.push({ name, length: 1 });
  }
  return runs
    .filter((run) => run.length >= 3)
    .map((run) => run.name)
    .filter((name, index, names) => name !== names[index - 1]);
}
