// Our /mcp transport against the SDK's: the same POST sent to both answers the same status, JSON-RPC error and body, for every HTTP rule of the SDK's Streamable HTTP transport.

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { answerMcpPost, JsonResponseTransport } from '../../src/mcp/json-transport.ts';

const MAX_BODY_BYTES = 2048;

/** How many calls of the tool `wait` saw their signal aborted (their client went away). */
let abortedWaits = 0;
/** Resolves once the tool `wait` has been called. */
let waitCalled: () => void = () => {};

/** A server with a tool that answers its text and what it was told of the request (headers, URL), and one that waits for its signal. */
function echoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('wait', { description: 'Answers once its call is cancelled.' }, (extra) => {
    waitCalled();
    return new Promise((resolve) =>
      extra.signal.addEventListener('abort', () => {
        abortedWaits++;
        resolve({ content: [] });
      }),
    );
  });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, async ({ text }, extra) => {
    const { 'x-transport': _, ...headers } = extra.requestInfo?.headers ?? {};
    return { content: [{ type: 'text', text }], structuredContent: { text, headers, url: extra.requestInfo?.url?.href } };
  });
  return server;
}

/** `/mcp` answered by the SDK's transport or by ours, as the header `x-transport` says: the same path, host and server. */
let http: Server;
let port: number;
beforeAll(async () => {
  http = createServer((req, res) => {
    if (req.headers['x-transport'] === 'sdk') {
      const server = echoServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: MAX_BODY_BYTES,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    } else {
      void answerMcpPost(req, res, MAX_BODY_BYTES, echoServer);
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

interface Answer {
  status: number;
  mediaType: string | undefined;
  body: unknown;
}

type Headers = Record<string, string | string[]>;
const JSON_POST: Headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** POSTs `body` to /mcp through one transport; `chunked` sends it without a Content-Length. */
function post(transport: 'sdk' | 'ours', body: string, headers: Headers = JSON_POST, chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', path: '/mcp', method: 'POST', headers: { ...headers, 'x-transport': transport } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode as number,
            mediaType: res.headers['content-type']?.split(';')[0],
            body: text === '' ? undefined : JSON.parse(text),
          }),
        );
      },
    );
    req.on('error', reject);
    if (chunked) {
      const half = body.length >> 1;
      req.write(body.slice(0, half));
      req.end(body.slice(half));
    } else {
      req.setHeader('Content-Length', Buffer.byteLength(body));
      req.end(body);
    }
  });
}

/** The same POST through both transports: our answer, once checked equal to the SDK's. */
async function sameAsSdk(body: string, headers: Headers = JSON_POST, chunked = false): Promise<Answer> {
  const sdk = await post('sdk', body, headers, chunked);
  const ours = await post('ours', body, headers, chunked);
  expect(ours).toEqual(sdk);
  return ours;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const echo = (id: number, text = 'hello') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const refused = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

describe('our /mcp transport answers as the SDK transport', () => {
  it('answers initialize, a tool call and the list of tools with 200 and one JSON-RPC response', async () => {
    const started = await sameAsSdk(JSON.stringify(initialize));
    expect(started).toMatchObject({
      status: 200,
      mediaType: 'application/json',
      body: { id: 1, result: { serverInfo: { name: 'echo' } } },
    });
    const called = await sameAsSdk(JSON.stringify(echo(2)));
    expect(called).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hello' }] } } });
    expect((await sameAsSdk(JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }))).body).toMatchObject({
      id: 'list',
      result: { tools: [{ name: 'wait' }, { name: 'echo' }] },
    });
  });

  it('hands the server the request headers and URL, a repeated header joined by a comma', async () => {
    const headers = { ...JSON_POST, Authorization: 'Bearer sk_live_x', 'X-Repeated': ['one', 'two'] };
    const { body } = await sameAsSdk(JSON.stringify(echo(3)), headers);
    expect(body).toMatchObject({
      result: {
        structuredContent: {
          headers: { authorization: 'Bearer sk_live_x', 'x-repeated': 'one, two', 'content-type': 'application/json' },
          url: `http://127.0.0.1:${port}/mcp`,
        },
      },
    });
  });

  it('answers a batch with the array of its responses, in the order of its requests, notifications left out', async () => {
    const batch = [echo(7, 'first'), initialized, { jsonrpc: '2.0', id: 'b', method: 'tools/list' }, echo(5, 'third')];
    const { status, body } = await sameAsSdk(JSON.stringify(batch));
    expect(status).toBe(200);
    expect((body as { id: unknown }[]).map((response) => response.id)).toEqual([7, 'b', 5]);
    // A batch with one request is answered with that response alone.
    expect((await sameAsSdk(JSON.stringify([initialized, echo(8)]))).body).toMatchObject({ id: 8 });
  });

  it('answers notifications and responses alone with 202 and no body', async () => {
    expect(await sameAsSdk(JSON.stringify(initialized))).toEqual({ status: 202, mediaType: undefined, body: undefined });
    expect((await sameAsSdk(JSON.stringify([initialized, { jsonrpc: '2.0', id: 9, result: {} }]))).status).toBe(202);
    expect((await sameAsSdk('[]')).status).toBe(202);
  });

  it('answers JSON-RPC errors of the server (an unknown method, bad tool arguments) with 200', async () => {
    expect((await sameAsSdk(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'no/such' }))).body).toMatchObject({
      id: 4,
      error: { code: -32601 },
    });
    const bad = await sameAsSdk(JSON.stringify({ ...echo(6), params: { name: 'echo', arguments: { text: 42 } } }));
    expect(bad.body).toMatchObject({ id: 6, result: { isError: true } });
  });

  it('refuses a client that does not accept both JSON and an event stream: 406', async () => {
    const notAcceptable = refused(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    for (const accept of ['application/json', 'text/event-stream', '*/*']) {
      expect(await sameAsSdk(JSON.stringify(echo(1)), { ...JSON_POST, Accept: accept })).toEqual({
        status: 406,
        mediaType: 'application/json',
        body: notAcceptable,
      });
    }
    expect((await sameAsSdk(JSON.stringify(echo(1)), { 'Content-Type': 'application/json' })).status).toBe(406);
  });

  it('refuses a body that is not application/json: 415, its parameters allowed', async () => {
    const unsupported = refused(-32000, 'Unsupported Media Type: Content-Type must be application/json');
    for (const type of ['text/plain', 'text/plain; a=application/json', 'application/jsonx']) {
      expect(await sameAsSdk(JSON.stringify(echo(1)), { ...JSON_POST, 'Content-Type': type })).toMatchObject({
        status: 415,
        body: unsupported,
      });
    }
    expect((await sameAsSdk(JSON.stringify(echo(1)), { Accept: JSON_POST.Accept as string })).status).toBe(415);
    expect((await sameAsSdk(JSON.stringify(echo(1)), { ...JSON_POST, 'Content-Type': 'Application/JSON; charset=utf-8' })).status).toBe(
      200,
    );
  });

  it('refuses a body over the bound, declared or not: 413', async () => {
    const large = JSON.stringify(echo(1, 'x'.repeat(MAX_BODY_BYTES)));
    const tooLarge = { status: 413, body: refused(-32000, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`) };
    expect(await sameAsSdk(large)).toMatchObject(tooLarge);
    expect(await sameAsSdk(large, JSON_POST, true)).toMatchObject(tooLarge);
    // Exactly the bound is read.
    const fits = JSON.stringify(echo(1, 'x'.repeat(MAX_BODY_BYTES - JSON.stringify(echo(1, '')).length)));
    expect((await sameAsSdk(fits, JSON_POST, true)).status).toBe(200);
  });

  it('refuses a body that is not JSON: 400, -32700', async () => {
    for (const body of ['{not json', '', '{"jsonrpc":"2.0",']) {
      expect(await sameAsSdk(body)).toMatchObject({ status: 400, body: refused(-32700, 'Parse error: Invalid JSON') });
    }
    // A byte-order mark is not a fault (the SDK reads the body with a TextDecoder).
    expect((await sameAsSdk(`\ufeff${JSON.stringify(echo(1))}`)).status).toBe(200);
  });

  it('refuses messages that are not JSON-RPC: 400, -32700', async () => {
    const invalid = { status: 400, body: refused(-32700, 'Parse error: Invalid JSON-RPC message') };
    for (const body of [{ hello: 'world' }, { ...echo(1), jsonrpc: '1.0' }, { ...echo(1), extra: true }, [echo(1), { id: 2 }], 42, null]) {
      expect(await sameAsSdk(JSON.stringify(body))).toMatchObject(invalid);
    }
  });

  it('refuses a batch of more than 100 messages: 400, -32600', async () => {
    // Counted before its messages are read: 101 zeros are refused for their number.
    const batch = Array.from({ length: 101 }, () => 0);
    expect(await sameAsSdk(JSON.stringify(batch))).toMatchObject({
      status: 400,
      body: refused(-32600, 'Invalid Request: Batch must not exceed 100 messages'),
    });
  });

  it('refuses an initialize that is not alone: 400, -32600', async () => {
    const notAlone = { status: 400, body: refused(-32600, 'Invalid Request: Only one initialization request is allowed') };
    expect(await sameAsSdk(JSON.stringify([initialize, echo(2)]))).toMatchObject(notAlone);
    expect(await sameAsSdk(JSON.stringify([initialize, { ...initialize, id: 2 }]))).toMatchObject(notAlone);
    // A lone initialize in a batch is one initialize.
    expect((await sameAsSdk(JSON.stringify([initialize]))).status).toBe(200);
  });

  it('refuses an unsupported mcp-protocol-version on any message but initialize: 400, -32000', async () => {
    const versioned = (version: string) => ({ ...JSON_POST, 'mcp-protocol-version': version });
    const unsupported = await sameAsSdk(JSON.stringify(echo(1)), versioned('1999-01-01'));
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({
      error: {
        code: -32000,
        message: expect.stringMatching(/^Bad Request: Unsupported protocol version: 1999-01-01 \(supported versions: /),
      },
    });
    expect((await sameAsSdk(JSON.stringify(initialized), versioned(''))).status).toBe(400);
    expect((await sameAsSdk(JSON.stringify(echo(1)), versioned(LATEST_PROTOCOL_VERSION))).status).toBe(200);
    expect((await sameAsSdk(JSON.stringify(initialize), versioned('1999-01-01'))).status).toBe(200);
  });
});

describe('answerMcpPost', () => {
  it("aborts the server's handlers when the client goes away before its answer", async () => {
    const called = new Promise<void>((resolve) => {
      waitCalled = resolve;
    });
    const req = request({ port, host: '127.0.0.1', path: '/mcp', method: 'POST', headers: JSON_POST });
    req.on('error', () => {});
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: {} } }));
    await called;
    expect(abortedWaits).toBe(0);
    req.destroy();
    await vi.waitFor(() => expect(abortedWaits).toBe(1));
  });
});

describe('JsonResponseTransport', () => {
  it('answers nothing once closed before the responses, and tells the server', async () => {
    const transport = new JsonResponseTransport();
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    const answer = transport.exchange({ messages: [echo(1) as never], requestInfo: { headers: {} }, hasRequests: true });
    await transport.close();
    expect(await answer).toBeUndefined();
    expect(closed).toBe(true);
    await expect(transport.send({ jsonrpc: '2.0', id: 1, result: {} })).rejects.toThrow('No connection established for request ID: 1');
  });

  it('is started once, as the SDK transports are', async () => {
    const transport = new JsonResponseTransport();
    await transport.start();
    await expect(transport.start()).rejects.toThrow('Transport already started');
  });
});
