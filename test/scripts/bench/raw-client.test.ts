// The open-loop sender's lean client: answers end where their length or last chunk says, connections are reused, failures have a code.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRawClient, type Outcome } from '../../../scripts/bench/raw-client.ts';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listen(handler: http.RequestListener): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  server = http.createServer(handler);
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

const get = (client: ReturnType<typeof createRawClient>, path: string) => new Promise<Outcome>((resolve) => client.get(path, resolve));

describe('the raw client', () => {
  it('reads statuses of answers by length, chunked, empty and not modified, over one kept-alive connection', async () => {
    const { port, connections } = await listen((req, res) => {
      if (req.url === '/chunked') {
        res.writeHead(201);
        res.write('a'.repeat(5000));
        setTimeout(() => res.end('b'), 5);
      } else if (req.url === '/not-modified') {
        res.writeHead(304, { ETag: '"x"' }).end();
      } else if (req.url === '/missing') {
        res.writeHead(404).end();
      } else {
        res.end(JSON.stringify({ path: req.url, headers: req.headers }));
      }
    });
    const client = createRawClient({ host: '127.0.0.1', port, headers: { 'x-test': 'yes' }, timeoutMs: 60_000 });
    const outcomes: Outcome[] = [];
    for (const path of ['/a', '/chunked', '/not-modified', '/missing', '/b', '/chunked']) outcomes.push(await get(client, path));
    client.close();
    expect(outcomes).toEqual([{ status: 200 }, { status: 201 }, { status: 304 }, { status: 404 }, { status: 200 }, { status: 201 }]);
    expect(connections()).toBe(1);
  });

  it('sends a POST with its body and Content-Length, between GETs on the same connection', async () => {
    const bodies: string[] = [];
    const { port, connections } = await listen(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      bodies.push(`${req.method} ${req.url} ${req.headers['content-type'] ?? ''} ${body}`);
      res.end('ok');
    });
    const client = createRawClient({ host: '127.0.0.1', port, headers: { 'content-type': 'application/json' }, timeoutMs: 60_000 });
    const post = (body: string) => new Promise<Outcome>((resolve) => client.send({ method: 'POST', path: '/mcp', body }, resolve));
    expect(await get(client, '/a')).toEqual({ status: 200 });
    expect(await post('{"jsonrpc":"2.0","id":1,"params":{"ref":"Génesis 1:1"}}')).toEqual({ status: 200 });
    expect(await get(client, '/b')).toEqual({ status: 200 });
    client.close();
    expect(bodies).toEqual([
      'GET /a application/json ',
      'POST /mcp application/json {"jsonrpc":"2.0","id":1,"params":{"ref":"Génesis 1:1"}}',
      'GET /b application/json ',
    ]);
    expect(connections()).toBe(1);
  });

  it("stops reusing an idle connection a second before the server's Keep-Alive timeout, and closes it", async () => {
    let closedByClient = 0;
    const { port, connections } = await listen((_req, res) => res.end('ok'));
    // Node's server says `Keep-Alive: timeout=5` (its keepAliveTimeout) and closes a connection idle that long.
    server!.keepAliveTimeout = 5_000;
    server!.on('connection', (socket) => socket.on('end', () => closedByClient++));
    let clock = 0;
    const client = createRawClient({ host: '127.0.0.1', port, headers: {}, timeoutMs: 60_000, now: () => clock });
    expect(await get(client, '/a')).toEqual({ status: 200 });
    clock += 3_999;
    expect(await get(client, '/b')).toEqual({ status: 200 });
    expect(connections()).toBe(1);
    clock += 4_000;
    expect(await get(client, '/c')).toEqual({ status: 200 });
    expect(connections()).toBe(2);
    await vi.waitFor(() => expect(closedByClient).toBe(1));
    client.close();
  });

  it('opens another connection when the server closes one, fails a request whose connection the server closed with CLOSED, and a silent one with TIMEOUT', async () => {
    const { port, connections } = await listen((req, res) => {
      if (req.url === '/silent') return;
      if (req.url === '/drop') {
        req.socket.destroy();
        return;
      }
      res.setHeader('Connection', 'close');
      res.end('bye');
    });
    // Answers that come must not meet the timeout, however loaded the machine: a minute for them.
    const client = createRawClient({ host: '127.0.0.1', port, headers: {}, timeoutMs: 60_000 });
    expect(await get(client, '/close')).toEqual({ status: 200 });
    expect(await get(client, '/close')).toEqual({ status: 200 });
    expect(connections()).toBe(2);
    // Closed by the server with the request unanswered: told apart from one given up at the end of a run (ABANDONED).
    expect(await get(client, '/drop')).toEqual({ code: 'CLOSED' });
    expect(await get(client, '/close')).toEqual({ status: 200 });
    client.close();
    // An answer that never comes meets any timeout: a short one keeps the test quick.
    const impatient = createRawClient({ host: '127.0.0.1', port, headers: {}, timeoutMs: 200 });
    expect(await get(impatient, '/silent')).toEqual({ code: 'TIMEOUT' });
    impatient.close();
  });
});
