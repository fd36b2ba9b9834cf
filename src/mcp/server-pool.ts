// Idle MCP servers kept for the next /mcp requests: each answers one request at a time, its caller set per request.
//
// Why: making a server for each POST (the SDK's McpServer, 13 tools and the resources registered, and the garbage of
// it) was a quarter to a half of a tools/call's CPU once the transport was ours: mcpcpu.sh, a server per request
// against reused ones, 519 -> 196 and 304 -> 234 µs a call at load 1-2.5 (docs/mcp.md, "Cost of a call"), though
// its frames were only 3-6% of a CPU profile's samples. What keeps reuse correct:
// - a server is lent to one request and given back only once that request is answered, so two requests in flight
//   never share one (JSON-RPC ids of two clients collide, and the SDK's Protocol maps its handlers by id);
// - it is given back after the current turn of the event loop, when the SDK has forgotten the request, then
//   closed (which detaches its transport) before it is lent again;
// - a server whose client went away is not given back (its handlers may still run, reading their caller), nor one
//   that answered an initialize (the SDK's Server keeps that client's capabilities and version);
// - the caller (key, address, request id) is one object per server, rewritten when the server is lent: the tools
//   read it when they run, and only the request that holds the server runs them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A server lent to one request, with the caller its tools read. */
export interface LentServer<Caller> {
  server: McpServer;
  caller: Caller;
}

/** How many idle servers are kept: /mcp requests in flight at once beyond this get servers made for them alone. */
export const IDLE_SERVERS = 8;

/**
 * Servers made by `make` (given the caller object its tools are to read), lent one request at a time.
 *
 * @example const lent = pool.lend(caller); … pool.giveBack(lent, answered);
 */
export class McpServerPool<Caller extends object> {
  readonly #idle: LentServer<Caller>[] = [];

  constructor(
    private readonly make: (caller: Caller) => McpServer,
    private readonly idleServers = IDLE_SERVERS,
  ) {}

  /** An idle server, or a new one, with its caller's fields set to `caller`'s. */
  lend(caller: Caller): LentServer<Caller> {
    const idle = this.#idle.pop();
    if (idle === undefined) {
      const own = { ...caller };
      return { server: this.make(own), caller: own };
    }
    Object.assign(idle.caller, caller);
    return idle;
  }

  /** Takes `lent` back once its request is answered (`answered`; otherwise it is dropped), to lend again if it is fit to. */
  giveBack(lent: LentServer<Caller>, answered: boolean): void {
    if (!answered) return;
    setImmediate(() => {
      void lent.server.close().then(() => {
        if (lent.server.server.getClientCapabilities() === undefined && this.#idle.length < this.idleServers) this.#idle.push(lent);
      });
    });
  }

  /** How many servers are idle (for tests). */
  get idleCount(): number {
    return this.#idle.length;
  }
}
