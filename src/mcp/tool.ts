// What an MCP tool of this server is: a name, a text and input schema written for a model, and a thin call into an endpoint table.
import type { ZodRawShape } from 'zod';
import type { EndpointCaller } from '../http/endpoint-call.ts';

/** What a tool's call is given. */
export interface ToolContext {
  /** The Bible table's endpoints, answered without HTTP. */
  bible: EndpointCaller;
  /** The church table's endpoints, once the caller's key has been checked and counted (church tools only). */
  church: EndpointCaller;
}

/** One tool: listed to every client; a keyed one is answered only with a valid key in the MCP request. */
export interface ToolDefinition {
  name: string;
  title: string;
  /** What it returns, for a model choosing a tool: the languages, the conventions, what an error means. */
  description: string;
  inputSchema: ZodRawShape;
  /** Needs the caller's API key (the church table's): checked, counted against the key's limit, before `call`. */
  keyed: boolean;
  call(args: Record<string, unknown>, context: ToolContext): Promise<unknown>;
}

/** A tool argument as a URL's query would carry it: absent stays absent, a number its digits. */
export function queryValue(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}
