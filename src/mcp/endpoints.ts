// The MCP table: the Model Context Protocol at /mcp (Streamable HTTP, stateless), one exchange endpoint with its own per-address limit, served by the one dispatcher.
import type { EndpointTable } from '../http/endpoint.ts';
import { answerMcpPost } from './json-transport.ts';
import { createMcpServer, type McpCaller, type McpDependencies } from './server.ts';
import { type LentServer, McpServerPool } from './server-pool.ts';

/** Where MCP clients connect. */
export const MCP_PATH = '/mcp';

/** The largest JSON-RPC body read: a tool call is a few hundred bytes, the SDK's default is 4 MB. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** The idle servers of each app (its dependencies): a test may run several apps in one process. */
const pools = new WeakMap<McpDependencies, McpServerPool<McpCaller>>();

function poolOf(deps: McpDependencies): McpServerPool<McpCaller> {
  let pool = pools.get(deps);
  if (pool === undefined) {
    pool = new McpServerPool((caller) => createMcpServer(deps, caller));
    pools.set(deps, pool);
  }
  return pool;
}

/**
 * The MCP endpoint. Stateless: each POST gets its own transport and a server of its own while it is
 * answered (no session id, nothing of a client kept between requests, so any instance answers any
 * request; servers are reused one request at a time, server-pool.ts), and its answer is one JSON body (no
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
      async exchange({ req, res, requestId, address }, deps) {
        const pool = poolOf(deps);
        let lent: LentServer<McpCaller> | undefined;
        const answered = await answerMcpPost(req, res, MCP_MAX_BODY_BYTES, () => {
          lent = pool.lend({ authorization: req.headers.authorization, address, requestId });
          return lent.server;
        });
        if (lent !== undefined) pool.giveBack(lent, answered);
      },
    },
  ],
};
