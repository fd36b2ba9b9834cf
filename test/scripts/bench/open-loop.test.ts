// The open-loop sender: requests leave on schedule whatever the answers, and waiting is counted from the scheduled time.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dueCount, measuredLatencyMs, openLoop, scheduledCount, scheduledOffsetMs } from '../../../scripts/bench/open-loop.ts';

describe('the schedule', () => {
  it('spaces requests evenly at the offered rate, the first at once', () => {
    expect(scheduledCount(200, 3000)).toBe(600);
    expect(scheduledOffsetMs(0, 200)).toBe(0);
    expect(scheduledOffsetMs(1, 200)).toBe(5);
    expect(scheduledOffsetMs(600, 2000)).toBe(300);
  });

  it('counts as due every request scheduled at or before the elapsed time, never more than the run holds', () => {
    expect(dueCount(-1, 500, 100)).toBe(0);
    expect(dueCount(0, 500, 100)).toBe(1);
    expect(dueCount(1.99, 500, 100)).toBe(1);
    expect(dueCount(2, 500, 100)).toBe(2);
    expect(dueCount(10_000, 500, 100)).toBe(100);
  });

  it('counts a late request from its scheduled time and an early one from its actual send', () => {
    expect(measuredLatencyMs(100, 130, 131)).toBe(31);
    expect(measuredLatencyMs(100, 99.5, 101)).toBe(1.5);
  });
});

describe('openLoop against a server that holds every answer', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('keeps sending on schedule while nothing is answered, and counts the wait in the latency', async () => {
    const held: http.ServerResponse[] = [];
    let receivedBeforeFirstAnswer = 0;
    server = http.createServer((_req, res) => {
      held.push(res);
      receivedBeforeFirstAnswer = held.length;
      // Nothing is answered until the last scheduled request (20 at 100/s: the 20th at 190 ms) has arrived.
      if (held.length === 20) for (const response of held) response.end('ok');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const result = await openLoop({ baseUrl: `http://127.0.0.1:${port}`, paths: ['/a', '/b'], rate: 100, durationMs: 200 });
    expect(receivedBeforeFirstAnswer).toBe(20);
    expect(result).toMatchObject({ sent: 20, answered: 20, errors: { total: 0 } });
    // The first request waited for the last one to be sent: about 190 ms, though the server answered it at once then.
    expect(result.latency.max).toBeGreaterThanOrEqual(180);
    expect(result.latency.p50).toBeGreaterThanOrEqual(80);
  });

  it("counts the warm-up apart: its slow answers are in its own figures, not in the run's", async () => {
    // The first 10 requests (the warm-up at 100/s for 100 ms) are held until the 10th has arrived; the rest are answered at once.
    const held: http.ServerResponse[] = [];
    let received = 0;
    server = http.createServer((_req, res) => {
      received++;
      if (received > 10) return void res.end('ok');
      held.push(res);
      if (held.length === 10) for (const response of held) response.end('ok');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const result = await openLoop({ baseUrl: `http://127.0.0.1:${port}`, paths: ['/'], rate: 100, durationMs: 200, warmUpMs: 100 });
    expect(result).toMatchObject({ sent: 20, answered: 20, warmUpMs: 100, errors: { total: 0 } });
    expect(result.warmUp.count).toBe(10);
    // The first warm-up request waited for the 10th to be sent (90 ms).
    expect(result.warmUp.max).toBeGreaterThanOrEqual(80);
    // None of the held ones is among the run's 20.
    expect(result.latency.count).toBe(20);
  });

  it('counts answers with another status, by status', async () => {
    server = http.createServer((req, res) => {
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const result = await openLoop({ baseUrl: `http://127.0.0.1:${port}`, paths: ['/ok', '/missing'], rate: 200, durationMs: 100 });
    expect(result.errors).toEqual({ total: 10, byStatus: { '404': 10 }, byCode: {} });
    expect(result.answered).toBe(20);
  });

  it('gives up on what is still unanswered once the timeout has passed after the last send, so an overloaded run ends', async () => {
    // Never finishes an answer, and keeps each connection busy so that no idle timeout fires.
    const timers: NodeJS.Timeout[] = [];
    server = http.createServer((_req, res) => {
      res.writeHead(200);
      timers.push(setInterval(() => res.write('.'), 50));
    });
    server.on('close', () => timers.forEach(clearInterval));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = performance.now();
    const result = await openLoop({ baseUrl: `http://127.0.0.1:${port}`, paths: ['/'], rate: 100, durationMs: 100, timeoutMs: 300 });
    for (const timer of timers) clearInterval(timer);
    expect(result).toMatchObject({ sent: 10, answered: 0, errors: { total: 10, byStatus: {}, byCode: { ABANDONED: 10 } } });
    // Sends end at 100 ms and the rest is abandoned 300 ms later: about 0.4 s. A run that did not give
    // up would never end here (the server never finishes an answer); 5 s tells the two apart on any load.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
