// The /mcp endpoint's own transport: one stateless POST answered with one JSON body, read from Node's request and written to its response with the SDK's HTTP rules.
//
// Why not the SDK's StreamableHTTPServerTransport: it wraps its web-standard transport in @hono/node-server, so each
// POST became a web `Request` with a body `ReadableStream`, then a web `Response` copied back into Node's response.
// A tools/call of get_bible_passage cost the service 1.1-1.5 ms of CPU on a quiet machine, most of it the SDK's
// stream bookkeeping, web streams, undici's Request and the garbage they leave (0.1 ms for the same passage over
// plain HTTP); through this file, 0.41-0.46 ms, 0.2 with servers reused (docs/mcp.md, "Cost of a call"). And the
// first POST made Node's web streams build a TypeError whose stack trace parsed the bundle's source map (2 MB kept
// for the process's life): the /mcp burst of scripts/bench/peak-rss.ts added 3-7 MB to the peak, now nothing. This file keeps only what a
// stateless JSON answer needs: the HTTP rules of the SDK's handlePostRequest (webStandardStreamableHttp.js, 1.32.2:
// the same statuses, JSON-RPC codes and messages; test/mcp/json-transport.test.ts compares the two) and a `Transport`
// the SDK's McpServer connects to, so the SDK's Protocol still does all of JSON-RPC (initialize, tools, resources,
// errors, the tools' arguments).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { MAX_BATCH_SIZE, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
  type RequestId,
  type RequestInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { readBoundedBody } from './request-body.ts';

/** What answers a POST's messages: an McpServer of the SDK, connected to one transport at a time. */
export interface McpServerLike {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** What a POST to /mcp is answered: a status and a JSON body, or (202) no body. */
export interface McpAnswer {
  status: number;
  body?: string;
}

/** A POST's JSON-RPC messages, past the HTTP rules, and what the server's handlers are told of the request (as the SDK tells them). */
export interface McpPost {
  messages: JSONRPCMessage[];
  requestInfo: RequestInfo;
  /** Whether a message is a request (answered 200 with the responses); otherwise 202. */
  hasRequests: boolean;
}

/**
 * Answers a POST to /mcp: its messages read and checked (`readMcpPost`), then handed to the server
 * `serverFor` gives (only for a post that passed), whose answer is written; the server is closed
 * when the client goes away first (its handlers' signals are aborted), and left as it is once it
 * has answered (server-pool.ts closes it before lending it again). True when the server answered.
 *
 * @example const answered = await answerMcpPost(req, res, 64 * 1024, () => createMcpServer(deps, caller));
 */
export async function answerMcpPost(
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
  serverFor: () => McpServerLike,
): Promise<boolean> {
  const post = await readMcpPost(req, maxBodyBytes);
  if (!('messages' in post)) {
    writeMcpAnswer(res, post);
    return false;
  }
  const server = serverFor();
  // Closed only when the client goes away before its answer, so that the server's handlers are told (their signals
  // aborted). Once answered there is nothing to release, and closing would abort the controller of the request the
  // Protocol has not yet forgotten (a DOMException with its stack, then an McpError): 4% of a call's CPU, profiled.
  const abandon = () => void server.close();
  res.once('close', abandon);
  const transport = new JsonResponseTransport();
  await server.connect(transport);
  const answer = await transport.exchange(post);
  res.off('close', abandon);
  if (answer === undefined) return false;
  writeMcpAnswer(res, answer);
  return true;
}

/**
 * Reads a POST to /mcp and checks it as the SDK's Streamable HTTP transport does, in its order:
 * `Accept` (406), `Content-Type` (415), the body's size (413) and JSON (400, -32700), the batch's
 * size (400, -32600), each message against the SDK's `JSONRPCMessageSchema` (400, -32700), one
 * initialize and alone (400, -32600), then, unless it is an initialize, `mcp-protocol-version`
 * (400, -32000 for a version the SDK does not support; without it the request is taken). Returns
 * the messages, or the refusal to write.
 *
 * @example const post = await readMcpPost(req, 64 * 1024); if (!('messages' in post)) return writeMcpAnswer(res, post);
 */
export async function readMcpPost(req: IncomingMessage, maxBodyBytes: number): Promise<McpPost | McpAnswer> {
  // Node's own parse of the headers (lower-case names, a repeated header joined by ", "), as the service's other
  // endpoints read them: what the server's handlers are told of the request, as the SDK tells them its web Headers.
  const { headers } = req;
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(headers['content-type'])) {
    return refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  let raw: unknown;
  try {
    const body = await readBoundedBody(req, maxBodyBytes);
    if (body.tooLarge) return refusal(413, -32000, requestBodyTooLargeMessage(maxBodyBytes));
    raw = JSON.parse(body.text);
  } catch {
    return refusal(400, -32700, 'Parse error: Invalid JSON');
  }
  if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) {
    return refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  }
  let messages: JSONRPCMessage[];
  try {
    messages = Array.isArray(raw) ? raw.map((message) => JSONRPCMessageSchema.parse(message)) : [JSONRPCMessageSchema.parse(raw)];
  } catch {
    return refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  // The method's name first: the SDK's check is a zod parse of the whole message.
  const initialize = messages.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message));
  if (initialize && messages.length > 1) {
    return refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  }
  const version = headerValue(headers['mcp-protocol-version']);
  if (!initialize && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return refusal(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
  }
  return { messages, requestInfo: { headers, url: requestUrl(req) }, hasRequests: messages.some(isRequest) };
}

/** Writes an answer of `readMcpPost` or of the transport: the JSON body with its length, or the status alone. */
export function writeMcpAnswer(res: ServerResponse, answer: McpAnswer): void {
  if (answer.body === undefined) {
    res.writeHead(answer.status);
    res.end();
    return;
  }
  res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}

/**
 * The transport of one POST, for an McpServer to connect to: `exchange` hands the post's messages
 * to the server and resolves with its answer, once every request among them has its response (one
 * object for one request, an array in the requests' order for several, as the SDK answers), or at
 * once with 202 when none is a request. Notifications the server sends about a request (progress,
 * logging) are dropped, as the SDK's JSON answers drop them; so are messages about no request (a
 * stateless POST has no event stream to carry them). Used once: after `close` nothing is answered.
 *
 * @example const transport = new JsonResponseTransport(); await server.connect(transport); writeMcpAnswer(res, (await transport.exchange(post))!);
 */
export class JsonResponseTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  #started = false;
  #closed = false;
  /** The post's requests by id, each with its response once the server has sent it. */
  readonly #responses = new Map<RequestId, JSONRPCMessage | undefined>();
  #awaited = 0;
  #settle: ((answer: McpAnswer | undefined) => void) | undefined;

  async start(): Promise<void> {
    if (this.#started) throw new Error('Transport already started');
    this.#started = true;
  }

  /** The answer to `post`; undefined when the transport is closed first (the client went away). */
  exchange(post: McpPost): Promise<McpAnswer | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    const extra: MessageExtraInfo = { requestInfo: post.requestInfo };
    if (!post.hasRequests) {
      for (const message of post.messages) this.onmessage?.(message, extra);
      return Promise.resolve({ status: 202 });
    }
    return new Promise((resolve) => {
      this.#settle = resolve;
      for (const message of post.messages) if (isRequest(message)) this.#responses.set(message.id, undefined);
      this.#awaited = this.#responses.size;
      for (const message of post.messages) this.onmessage?.(message, extra);
    });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = 'result' in message || 'error' in message;
    const id = response ? message.id : options?.relatedRequestId;
    if (id === undefined) {
      if (response) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      return;
    }
    if (!this.#responses.has(id)) throw new Error(`No connection established for request ID: ${String(id)}`);
    if (!response || this.#responses.get(id) !== undefined) return;
    this.#responses.set(id, message);
    if (--this.#awaited > 0) return;
    const responses = [...this.#responses.values()];
    this.#responses.clear();
    this.#settle?.({ status: 200, body: JSON.stringify(responses.length === 1 ? responses[0] : responses) });
    this.#settle = undefined;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#responses.clear();
    this.#settle?.(undefined);
    this.#settle = undefined;
    this.onclose?.();
  }
}

/** A JSON-RPC error with no id, as the SDK answers a refused POST. */
function refusal(status: number, code: number, message: string): McpAnswer {
  return { status, body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }) };
}

/** After `JSONRPCMessageSchema` (strict objects), a message with both `method` and `id` is a request. */
function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return 'method' in message && 'id' in message;
}

/** A header's text: Node gives only Set-Cookie as a list, but its type allows one for any header. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The request's full URL, as the SDK's Node wrapper makes it (undefined without a Host header). */
function requestUrl(req: IncomingMessage): URL | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  try {
    return new URL(`${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${host}${req.url ?? ''}`);
  } catch {
    return undefined;
  }
}
