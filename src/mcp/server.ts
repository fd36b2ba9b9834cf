// The MCP server of one request to /mcp (stateless): the Bible and church tools and the Bible's resources, each answered through the endpoint tables, every refusal a tool error.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type AnyObjectSchema, objectFromShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { LANGS } from '../../build/contract/books.ts';
import { type Problem, problemBody } from '../../build/contract/problems.ts';
import type { KeyCheck, Limiter } from '../http/dispatcher.ts';
import type { EndpointCaller } from '../http/endpoint-call.ts';
import { problemForError } from '../http/errors.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
import { ALL_PROBLEM_TYPES } from '../http/problems.ts';
import { KEY_PREFIX } from '../keys/format.ts';
import { bibleTools, VERSIONS_TEXT } from './bible-tools.ts';
import { churchTools } from './church-tools.ts';
import type { ToolContext, ToolDefinition } from './tool.ts';

/** What the MCP server answers from: the two tables' callers, and the church table's key check and key limit. */
export interface McpDependencies {
  bible: EndpointCaller;
  church: EndpointCaller;
  keyCheck: KeyCheck;
  /** The per-key limiter of the church endpoints: a church tool's call counts as one request of its key. */
  keyLimiter: Limiter;
  logger: Logger;
  publicBaseUrl: string;
  /** The server's version, as MCP clients are told it. */
  version: string;
}

/** Who sent the MCP request: its Authorization header (the church tools' key), its address, its id. */
export interface McpCaller {
  authorization: string | undefined;
  address: string | undefined;
  requestId: string;
}

/** Every tool, Bible first. */
export const MCP_TOOLS: readonly ToolDefinition[] = [...bibleTools, ...churchTools];

/**
 * Each tool's input schema as the zod object the SDK makes of a raw shape (its own `objectFromShape`), made
 * once for the process: given the shape, every server made its 13 objects again, and zod compiled each
 * object's parser again at its first use, for each /mcp request. A schema keeps nothing of a call.
 */
const INPUT_SCHEMAS: ReadonlyMap<string, AnyObjectSchema> = new Map(
  MCP_TOOLS.map((tool) => [tool.name, objectFromShape(tool.inputSchema)]),
);

const INSTRUCTIONS = `Church Data and Bible API. Bible tools need no key: passages by reference and full-text search in five languages (${VERSIONS_TEXT}), each language with its own version and its own way of writing references; the lists of versions and books are also resources (bible://versions, bible://books/{lang}). Church tools (profile, events, announcements, live status, library, store, photo albums of churches with a public profile) need the user's own API key, sent by the MCP client as \`Authorization: Bearer ${KEY_PREFIX}…\`; without one they answer an error saying so.`;

/**
 * The JSON Schema validator every server of the process shares, made at its first use. Without
 * one, the SDK builds a validator (a new Ajv with its formats) in each server's constructor, that
 * is once per /mcp request: about half the CPU of a tools/call. It is only used for elicitation,
 * which these servers never ask for, and it keeps nothing of a caller.
 */
let sharedAjv: AjvJsonSchemaValidator | undefined;
const schemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => {
    sharedAjv ??= new AjvJsonSchemaValidator();
    return sharedAjv.getValidator(schema);
  },
};

/**
 * A server for one MCP request: its tools are the endpoint tables' answers (endpoint-call.ts), so
 * a passage, a search or a church's events are the same bytes as over HTTP, checked by the same
 * parameter readers. A church tool first checks the caller's key (the same check as the church
 * endpoints: the invalid-key throttle, a revoked key refused at once) and counts the call against
 * the key's limit. Whatever goes wrong in a tool is a tool error (`isError`) naming what to change,
 * never a JSON-RPC or HTTP error; an unexpected failure is logged and answered as such.
 */
export function createMcpServer(deps: McpDependencies, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: 'church-bible-api', version: deps.version },
    {
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: schemaValidator,
    },
  );
  const context = toolContext(deps, caller);
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: INPUT_SCHEMAS.get(tool.name),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        try {
          return toolResult(await tool.call(args, tool.keyed ? await context.keyed() : context.keyless));
        } catch (error) {
          return toolError(
            problemForError(error, deps.logger, { requestId: caller.requestId, path: `/mcp ${tool.name}` }),
            deps.publicBaseUrl,
          );
        }
      },
    );
  }
  registerResources(server, deps.bible);
  return server;
}

/** The tools' context: the Bible always; the church once the caller's key is checked and counted. */
function toolContext(deps: McpDependencies, caller: McpCaller): { keyless: ToolContext; keyed(): Promise<ToolContext> } {
  const noChurch: EndpointCaller = () => Promise.reject(new Error('a keyless tool called the church table'));
  return {
    keyless: { bible: deps.bible, church: noChurch },
    async keyed() {
      const outcome = await deps.keyCheck.authenticate(caller.authorization, caller.address);
      if (outcome.refused) throw new ApiError(outcome.refused);
      const counted = await deps.keyLimiter.count(outcome.locals.apiKeyRateLimitKey);
      if (counted?.refused) throw new ApiError(counted.refused);
      return { bible: deps.bible, church: deps.church };
    },
  };
}

/** The books' resources, one per language: made once for the process, as it depends on no caller. */
const BOOKS_TEMPLATE = new ResourceTemplate('bible://books/{lang}', {
  list: async () => ({
    resources: LANGS.map((lang) => ({ uri: `bible://books/${lang}`, name: `bible-books-${lang}`, mimeType: 'application/json' })),
  }),
  complete: { lang: () => [...LANGS] },
});

/** The lists of versions and books, for clients that read resources. */
function registerResources(server: McpServer, bible: EndpointCaller): void {
  const json = (uri: URL, value: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] });
  server.registerResource(
    'bible-versions',
    'bible://versions',
    {
      title: 'Bible versions',
      description: `The versions, one per language (${VERSIONS_TEXT}), with licences and counts.`,
      mimeType: 'application/json',
    },
    async (uri) => json(uri, await resourceValue(bible('listBibleVersions'))),
  );
  server.registerResource(
    'bible-books',
    BOOKS_TEMPLATE,
    {
      title: 'Bible books of a language',
      description: 'The 66 books of the version of a language, with USFM codes, names, abbreviations and chapter counts.',
      mimeType: 'application/json',
    },
    async (uri, { lang }) => json(uri, await resourceValue(bible('listBibleBooks', { query: { lang: String(lang) } }))),
  );
}

/** A resource's value; a refusal (no build yet, an unknown language) as an error the client reads, with the problem's words. */
async function resourceValue(value: Promise<unknown>): Promise<unknown> {
  try {
    return await value;
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`${error.problem.title}: ${error.problem.detail}`);
    throw error;
  }
}

/** An answer as text (its JSON, for clients that read only text) and as structured content (an object: a list is `{ items }`). */
function toolResult(value: unknown): CallToolResult {
  const structured =
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { items: value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: structured };
}

/** A refusal as a tool error: the problem's title and detail, what to do about it, and the problem itself as structured content. */
function toolError(problem: Problem, publicBaseUrl: string): CallToolResult {
  const advice = ALL_PROBLEM_TYPES.find((type) => type.slug === problem.type)?.advice;
  const mcpHint =
    problem.status === 401
      ? ` For MCP: configure your MCP client to send the header \`Authorization: Bearer ${KEY_PREFIX}…\` with its requests to ${publicBaseUrl}/mcp (keys come from ${publicBaseUrl}/portal/).`
      : '';
  const argument = problem.parameter === undefined ? '' : ` (argument \`${problem.parameter}\`)`;
  const text = `${problem.title}${argument}: ${problem.detail}${advice === undefined ? '' : ` ${advice}`}${mcpHint}`;
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error: problemBody(problem, publicBaseUrl) } };
}
