// The dispatcher and the document from a table: an endpoint added to a table is answered and documented, the API never reaches the pages, a table that contradicts itself is refused.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problems } from '../../build/contract/problems.ts';
import { BIBLE_CORS } from '../../src/bible/cors.ts';
import { loadConfig } from '../../src/config.ts';
import { API_TABLES, openApiDocument } from '../../src/docs/openapi.ts';
import { prepareJson } from '../../src/http/cache.ts';
import { createDispatcher, type DispatcherOptions, type Limiter } from '../../src/http/dispatcher.ts';
import { type EndpointTable, endpointOf, type QueryParameter, served } from '../../src/http/endpoint.ts';
import { createLogger } from '../../src/http/logger.ts';
import { ApiError } from '../../src/http/problem.ts';
import { exchange } from '../helpers/http-exchange.ts';
import { collectLogLines } from '../helpers/log-lines.ts';

interface Letters {
  letters: readonly string[];
}

const letterCase: QueryParameter<'case', 'upper' | 'lower'> = {
  name: 'case',
  schema: Type.Union([Type.Literal('upper'), Type.Literal('lower')]),
  default: 'lower',
  description: 'The letter case of the answer.',
  read(raw) {
    if (raw === undefined) return 'lower';
    if (raw !== 'upper' && raw !== 'lower') throw new ApiError(problems.invalidParameter('case', 'case must be upper or lower.'));
    return raw;
  },
};

const repeat: QueryParameter<'repeat', number> = {
  name: 'repeat',
  schema: Type.Integer({ minimum: 1, maximum: 3 }),
  description: 'How many times.',
  read(raw) {
    if (raw === undefined) return 1;
    if (raw !== '1' && raw !== '2' && raw !== '3') throw new ApiError(problems.invalidParameter('repeat', 'repeat must be 1, 2 or 3.'));
    return Number(raw);
  },
};

const endpoint = endpointOf<Letters, undefined>();

/** A table of one endpoint, as a new domain would add it: a path parameter, two query parameters, a limit, CORS. */
const letterTable: EndpointTable<Letters> = {
  tag: 'Bible',
  prefix: '/api/v1/letters',
  cors: BIBLE_CORS,
  cache: { cacheControl: 'public, max-age=60', etag: true },
  endpoints: [
    endpoint({
      path: '/api/v1/letters/{index}',
      params: [{ name: 'index', schema: Type.Integer({ minimum: 0 }), description: 'Which letter.', example: 0 }],
      query: [letterCase, repeat],
      limit: 'address',
      answer: ({ params, query }, { letters }) => {
        const letter = letters[Number(params.index)];
        if (letter === undefined) throw new ApiError(problems.pathNotFound(`/api/v1/letters/${params.index}`));
        const text = (query.case === 'upper' ? letter.toUpperCase() : letter).repeat(query.repeat);
        return prepareJson({ letter: text });
      },
      operation: {
        operationId: 'getLetter',
        summary: 'A letter',
        description: 'One letter of the alphabet.',
        body: Type.Object({ letter: Type.String() }, { $id: 'Letter' }),
        example: { letter: 'a' },
      },
    }),
  ],
};

const config = loadConfig({});

describe('an endpoint added to a table', () => {
  it('appears in the OpenAPI document: path, parameters, limit, CORS, caching, problems', async () => {
    const document = openApiDocument(config, [...API_TABLES, letterTable as EndpointTable<unknown, unknown>]) as {
      paths: Record<string, { get: { operationId: string; parameters: unknown[]; responses: Record<string, { headers?: object }> } }>;
    };
    const operation = document.paths['/api/v1/letters/{index}']?.get;
    expect(operation?.operationId).toBe('getLetter');
    expect(operation.parameters).toEqual([
      { name: 'index', in: 'path', required: true, description: 'Which letter.', schema: { type: 'integer', minimum: 0 }, example: 0 },
      {
        name: 'case',
        in: 'query',
        required: false,
        description: 'The letter case of the answer.',
        schema: { type: 'string', enum: ['upper', 'lower'], default: 'lower' },
      },
      {
        name: 'repeat',
        in: 'query',
        required: false,
        description: 'How many times.',
        schema: { type: 'integer', minimum: 1, maximum: 3 },
      },
    ]);
    // A path parameter can fail to decode (400), the address limit refuses (429), the service can fail (500).
    expect(Object.keys(operation.responses)).toEqual(['200', '304', '400', '429', '500']);
    expect(Object.keys(operation.responses['200'].headers ?? {})).toEqual([
      'ETag',
      'Cache-Control',
      'Access-Control-Allow-Origin',
      'Access-Control-Expose-Headers',
      'RateLimit',
      'RateLimit-Policy',
    ]);
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe('the dispatcher', () => {
  let url: string;
  let close: () => Promise<void>;
  const pagesSaw: string[] = [];
  const counted: string[] = [];

  beforeAll(async () => {
    const limiter: Limiter = {
      async count(subject) {
        counted.push(subject);
        return { headers: [['RateLimit', `"test"; r=${10 - counted.length}; t=60`]] };
      },
    };
    const pages: RequestListener = (req, res) => {
      pagesSaw.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('a page');
    };
    const options: DispatcherOptions = {
      tables: [served(letterTable, { letters: ['a', 'b', 'c'] })],
      apiRoot: '/api',
      document: { path: '/api/openapi.json', body: prepareJson({ openapi: '3.1.0' }), cache: { cacheControl: 'no-cache', etag: true } },
      keyCheck: { authenticate: async () => ({ refused: problems.internalError() }) },
      limiters: { key: limiter, address: limiter, mcp: limiter },
      trust: () => false,
      logger: createLogger('silent', collectLogLines().destination),
      publicBaseUrl: 'https://api.example.test',
      pages,
    };
    const server = createServer(createDispatcher(options));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close?.());

  it('answers the endpoint from its table: parameters decoded and read, counted, with the CORS and cache of its table', async () => {
    const answer = await exchange(`${url}/api/v1/letters/%31?case=upper&repeat=2&other=x`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ letter: 'BB' });
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=60',
      ratelimit: expect.stringContaining('"test"'),
      'content-type': 'application/json; charset=utf-8',
    });
    expect(counted).toEqual(['127.0.0.1']);
  });

  it('answers the first bad query parameter, in the order the endpoint reads them', async () => {
    const answer = await exchange(`${url}/api/v1/letters/1?repeat=9&case=sideways`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ parameter: 'case' });
  });

  it('answers every path and method under the API itself, and hands the pages only what is not the API', async () => {
    const api = [
      ['GET', '/api/v1/letters/9'],
      ['GET', '/api/v1/letters/'],
      ['GET', '/api/v1/letters'],
      ['GET', '/api/elsewhere'],
      ['GET', '/api'],
      ['HEAD', '/api/openapi.json'],
      ['DELETE', '/api/v1/letters/1'],
      ['OPTIONS', '/api/v1/letters/1'],
      ['POST', '/api/nothing'],
    ];
    const statuses: number[] = [];
    for (const [method, path] of api) statuses.push((await exchange(`${url}${path}`, { method })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 200, 405, 405, 405]);
    expect(pagesSaw).toEqual([]);
    const page = await exchange(`${url}/docs?x=1`, { method: 'POST' });
    expect(page.body.toString('utf8')).toBe('a page');
    expect(page.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(pagesSaw).toEqual(['POST /docs?x=1']);
  });

  it('refuses a table whose endpoint does not declare the parameters of its path, or lies outside its prefix', () => {
    const base: DispatcherOptions = {
      tables: [],
      apiRoot: '/api',
      document: { path: '/api/openapi.json', body: prepareJson({}), cache: { cacheControl: 'no-cache', etag: true } },
      keyCheck: { authenticate: async () => ({ refused: problems.internalError() }) },
      limiters: { key: { count: async () => undefined }, address: { count: async () => undefined }, mcp: { count: async () => undefined } },
      trust: () => false,
      logger: createLogger('silent', collectLogLines().destination),
      publicBaseUrl: 'https://api.example.test',
      pages: () => {},
    };
    const [letter] = letterTable.endpoints;
    const undeclared = { ...letterTable, endpoints: [{ ...letter, params: [] }] };
    expect(() => createDispatcher({ ...base, tables: [served(undeclared, { letters: [] })] })).toThrow(/parameters are index/);
    const outside = { ...letterTable, endpoints: [{ ...letter, path: '/api/v2/letters/{index}' }] };
    expect(() => createDispatcher({ ...base, tables: [served(outside, { letters: [] })] })).toThrow(/not under its table's prefix/);
  });
});
