// The MCP table: the Model Context Protocol at /mcp (Streamable HTTP, stateless), one exchange endpoint with its own per-address limit, served by the one dispatcher.
import type { EndpointTable } from '../http/endpoint.ts';
import { answerMcpPost } from './json-transport.ts';
import { createMcpServer, type McpDependencies } from './server.ts';

/** Where MCP clients connect. */
export const MCP_PATH = '/mcp';

/** The largest JSON-RPC body read: a tool call is a few hundred bytes, the SDK's default is 4 MB. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * The MCP endpoint. Stateless: each POST gets its own server and transport (no session id, nothing
 * kept between requests, so any instance answers any request), and its answer is one JSON body (no
 * event stream to hold open): our own transport (json-transport.ts) with the SDK's HTTP rules, a
 * body that is not JSON-RPC, too large or of the wrong type answered with the SDK's 4xx before any
 * server is made. GET and DELETE, which only sessions and server-sent streams need, answer 405 with
 * `Allow: POST` (the dispatcher).
 */
export const mcpEndpoints: EndpointTable<McpDependencies> = {
  tag: 'MCP',
  // The answers say what they are (JSON-RPC results, some of them a key's church data): never stored.
  cache: { cacheControl: 'no-store', etag: false },
  endpoints: [],
  exchanges: [
    {
      path: MCP_PATH,
      method: 'POST',
      limit: 'mcp',
      exchange: ({ req, res, requestId, address }, deps) =>
        answerMcpPost(req, res, MCP_MAX_BODY_BYTES, () =>
          createMcpServer(deps, { authorization: req.headers.authorization, address, requestId }),
        ),
    },
  ],
};
