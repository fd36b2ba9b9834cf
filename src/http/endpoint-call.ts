// An endpoint of a table answered without HTTP, as the dispatcher answers it (the table's load, the query read in order, the answer), for another protocol over the same tables (MCP).
import type { Body, Endpoint, ServedTable } from './endpoint.ts';

/** One call: the path parameters by name, and the query as strings (absent: undefined), as a URL would carry them. */
export interface EndpointArguments {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | undefined>>;
}

/** Answers the endpoints of one served table by operationId; a refusal throws the ApiError the HTTP answer is made from. */
export type EndpointCaller = (operationId: string, call?: EndpointArguments) => Promise<unknown>;

/**
 * The caller of `served`'s endpoints: the same table load (the Bible build, the church: 503 and
 * 404 first), the same query readers in the same order (a bad value throws the ApiError naming its
 * parameter) and the same answer as over HTTP; the JSON body is returned as a value. Key checks and
 * limiters are the caller's to run (they belong to the protocol's request, not to the answer).
 *
 * @example await endpointCaller(served(bibleEndpoints, deps))('getPassage', { query: { lang: 'en', ref: 'John 3:16' } })
 */
export function endpointCaller(served: ServedTable): EndpointCaller {
  const { table, deps } = served;
  const byOperation = new Map<string, Endpoint<unknown, unknown>>(
    table.endpoints.map((endpoint) => [endpoint.operation.operationId, endpoint]),
  );
  return async (operationId, call = {}) => {
    const endpoint = byOperation.get(operationId);
    if (endpoint === undefined) throw new Error(`${table.tag} has no operation ${operationId}`);
    const params = call.params ?? {};
    const loaded = await table.load?.(params, deps);
    const raw = call.query ?? {};
    const query: Record<string, unknown> = {};
    for (const reader of endpoint.query) query[reader.name] = reader.read(raw[reader.name], query);
    return bodyValue(await endpoint.answer({ loaded, query, params }, deps));
  };
}

/** The JSON value of an answer held in memory; a file streamed from disk (the whole-version download) is not offered this way. */
function bodyValue(body: Body): unknown {
  if (body.kind === 'json') return JSON.parse(body.json.toString('utf8'));
  if (body.kind === 'stored') return JSON.parse(body.identity.bytes.toString('utf8'));
  throw new Error('a streamed file cannot be answered as a value');
}
