// Reused MCP servers: one request at a time each, its own caller in every answer (even with the same JSON-RPC id in flight twice), never reused after an initialize or a client that went away.

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerMcpPost } from '../../src/mcp/json-transport.ts';
import { type LentServer, McpServerPool } from '../../src/mcp/server-pool.ts';

interface Caller {
  name: string;
}

let made = 0;
/** Calls of `whoami` waiting for `release`; each resolves once released. */
let waiting: (() => void)[] = [];
let aborted = 0;

/** A server whose tool `whoami` answers its caller's name, once released when `hold` is set. */
function whoamiServer(caller: Caller): McpServer {
  made++;
  const server = new McpServer({ name: 'whoami', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Answers who calls.' }, async (extra) => {
    if (hold) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        extra.signal.addEventListener('abort', () => {
          aborted++;
          resolve();
        });
      });
    }
    return { content: [{ type: 'text', text: caller.name }] };
  });
  return server;
}

let hold = false;
let pool: McpServerPool<Caller>;
let http: Server;
let port: number;
beforeAll(async () => {
  http = createServer((req, res) => {
    let lent: LentServer<Caller> | undefined;
    void answerMcpPost(req, res, 4096, () => {
      lent = pool.lend({ name: String(req.headers['x-caller']) });
      return lent.server;
    }).then((answered) => lent && pool.giveBack(lent, answered));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));
beforeEach(() => {
  pool = new McpServerPool(whoamiServer, 2);
  made = 0;
  waiting = [];
  aborted = 0;
  hold = false;
});

const whoami = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } });

/** POSTs `body` to /mcp as `caller`; the answer's text (or the JSON-RPC body, when it has no text). */
function post(caller: string, body = whoami): { answer: Promise<unknown>; destroy(): void } {
  let destroy = () => {};
  const answer = new Promise<unknown>((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        path: '/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'x-caller': caller },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => {
          const json = JSON.parse(text) as { result?: { content?: { text: string }[] } };
          resolve(json.result?.content?.[0]?.text ?? json);
        });
      },
    );
    req.on('error', reject);
    destroy = () => req.destroy();
    req.end(body);
  });
  return { answer, destroy };
}

describe('the MCP server pool', () => {
  it('lends one server again to requests one after another, each answered for its own caller', async () => {
    for (const caller of ['ada', 'brendan', 'grace']) {
      expect(await post(caller).answer).toBe(caller);
      await vi.waitFor(() => expect(pool.idleCount).toBe(1));
    }
    expect(made).toBe(1);
  });

  it('gives two requests in flight two servers, each answering its own caller under the same JSON-RPC id', async () => {
    hold = true;
    const first = post('ada');
    const second = post('brendan');
    await vi.waitFor(() => expect(waiting).toHaveLength(2));
    expect(made).toBe(2);
    for (const release of waiting.reverse()) release();
    expect(await Promise.all([first.answer, second.answer])).toEqual(['ada', 'brendan']);
    await vi.waitFor(() => expect(pool.idleCount).toBe(2));
    hold = false;
    // Both lent again, with the callers of the requests that hold them now.
    expect(await Promise.all([post('grace').answer, post('linus').answer])).toEqual(['grace', 'linus']);
    expect(made).toBe(2);
  });

  it('keeps no more idle servers than it was told', async () => {
    hold = true;
    const answers = ['a', 'b', 'c'].map((caller) => post(caller).answer);
    await vi.waitFor(() => expect(waiting).toHaveLength(3));
    for (const release of waiting) release();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    await vi.waitFor(() => expect(pool.idleCount).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.idleCount).toBe(2);
  });

  it('does not lend again a server that answered an initialize (it keeps the client capabilities)', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 'test', version: '1' } },
    };
    expect(await post('ada', JSON.stringify(initialize)).answer).toMatchObject({ result: { serverInfo: { name: 'whoami' } } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.idleCount).toBe(0);
    expect(await post('brendan').answer).toBe('brendan');
    expect(made).toBe(2);
  });

  it('does not lend again a server whose client went away before its answer', async () => {
    hold = true;
    const gone = post('ada');
    gone.answer.catch(() => {});
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    gone.destroy();
    await vi.waitFor(() => expect(aborted).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.idleCount).toBe(0);
    hold = false;
    expect(await post('brendan').answer).toBe('brendan');
    expect(made).toBe(2);
  });
});
