// Many idle or slow sockets must not stop a new client from being served: a connection cap plus header timeouts that free the slots.
import type http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createHttpServer } from '../../src/http/http-server.ts';
import { apiFetch } from '../helpers/api-client.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const IDLE_SOCKETS = 300;
const CAP = 100;
const HEADERS_TIMEOUT_MS = 1_000;

/** Opens `count` loopback sockets that send half a request head and then nothing (slowloris). */
async function openIdleSockets(port: number, count: number): Promise<net.Socket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Socket>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.write('GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n');
            resolve(socket);
          });
          // Read (and drop) whatever the server sends, so its close is seen.
          socket.resume();
          socket.on('error', () => resolve(socket));
        }),
    ),
  );
}

describe(`${IDLE_SOCKETS} idle sockets against a server capped at ${CAP} connections`, () => {
  let app: TestServer;
  let server: http.Server;
  let url: string;
  let sockets: net.Socket[] = [];

  beforeAll(async () => {
    app = await startTestServer();
    server = createHttpServer(createApp(app.services), {
      maxConnections: CAP,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: 5_000,
      keepAliveTimeoutMs: 1_000,
      publicBaseUrl: app.services.config.publicBaseUrl,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    await apiFetch(`${url}/api/openapi.json`);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  it('closes the sockets past the cap at once, times the slow ones out, and serves a new client within a few seconds', async () => {
    sockets = await openIdleSockets((server.address() as net.AddressInfo).port, IDLE_SOCKETS);
    const open = () => sockets.filter((socket) => !socket.closed).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(open()).toBeLessThanOrEqual(CAP);

    // The held slots come free once the header timeout has passed; then a new client is served.
    const started = Date.now();
    let status: number | undefined;
    while (status === undefined && Date.now() - started < 5_000) {
      try {
        status = (await apiFetch(`${url}/api/openapi.json`, { signal: AbortSignal.timeout(1_000) })).status;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(HEADERS_TIMEOUT_MS * 4);
    expect(open()).toBe(0);
  }, 15_000);
});
