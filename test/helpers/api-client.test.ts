// The response checker of the HTTP tests: it must refuse what the document does not describe, or drift would pass unseen.
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, checkResponse, UndocumentedResponseError } from './api-client.ts';
import { type Listening, listenOnLoopback } from './listen.ts';

/** A small document in the shape of ours: one operation with a 200 JSON body and a 404 problem, and the Problem component. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'checker test', version: '1' },
  paths: {
    '/api/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'A thing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '304': { description: 'Not modified' },
          '404': { description: 'No thing', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
    '/api/things/special': {
      get: { responses: { '200': { description: 'Literal path', content: { 'application/json': { schema: { type: 'string' } } } } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'url'],
        properties: { id: { type: 'integer' }, url: { type: 'string', format: 'uri' }, note: { type: ['string', 'null'], example: 'x' } },
      },
      Problem: {
        type: 'object',
        required: ['type', 'title', 'status', 'detail'],
        properties: {
          type: { type: 'string', format: 'uri' },
          title: { type: 'string' },
          status: { type: 'integer' },
          detail: { type: 'string' },
        },
      },
    },
  },
};

const PROBLEM = { type: 'https://example.test/docs/problems#x', title: 'X', status: 404, detail: 'No.' };

let server: Listening;
beforeAll(async () => {
  const app = express();
  app.get('/api/openapi.json', (_req, res) => {
    res.json(DOCUMENT);
  });
  app.get('/api/things/special', (_req, res) => {
    res.json('special');
  });
  app.get('/api/things/1', (_req, res) => {
    res.json({ id: 1, url: 'https://example.test/1', note: null });
  });
  app.get('/api/things/2', (_req, res) => {
    res.json({ id: 'two', url: 'not a uri' });
  });
  app.get('/api/things/3', (_req, res) => {
    res.status(404).type('application/problem+json').send(JSON.stringify(PROBLEM));
  });
  app.get('/api/things/4', (_req, res) => {
    res.status(404).json(PROBLEM);
  });
  app.get('/api/things/5', (_req, res) => {
    res
      .status(400)
      .type('application/problem+json')
      .send(JSON.stringify({ ...PROBLEM, status: 400 }));
  });
  app.get('/api/things/6', (_req, res) => {
    res.status(304).end();
  });
  app.get('/api/undocumented', (_req, res) => {
    res.json({});
  });
  app.use((_req, res) => {
    res.status(404).type('text/html').send('<p>not found</p>');
  });
  server = await listenOnLoopback(app);
});
afterAll(() => server.close());

describe('apiFetch', () => {
  it('lets a documented response through, unread, and prefers a literal path over a template', async () => {
    const response = await apiFetch(`${server.url}/api/things/1`);
    expect(await response.json()).toEqual({ id: 1, url: 'https://example.test/1', note: null });
    expect(await (await apiFetch(`${server.url}/api/things/special`)).json()).toBe('special');
    expect((await apiFetch(`${server.url}/api/things/3`)).status).toBe(404);
    expect((await apiFetch(`${server.url}/api/things/6`)).status).toBe(304);
  });

  it('refuses a body that does not match its schema, showing the schema errors', async () => {
    const refusal = apiFetch(`${server.url}/api/things/2`);
    await expect(refusal).rejects.toThrow(UndocumentedResponseError);
    await expect(apiFetch(`${server.url}/api/things/2`)).rejects.toThrow(/\/id must be integer[\s\S]*\/url must match format "uri"/);
  });

  it('refuses a documented status sent with another media type than the documented one', async () => {
    await expect(apiFetch(`${server.url}/api/things/4`)).rejects.toThrow(
      /application\/json.*differs from the documented application\/problem\+json/,
    );
  });

  it('refuses a status the operation does not document', async () => {
    await expect(apiFetch(`${server.url}/api/things/5`)).rejects.toThrow(/status 400 is not documented for GET \/api\/things\/\{id\}/);
  });

  it('refuses a success on an /api/ path the document does not have, and an error that is not a problem', async () => {
    await expect(apiFetch(`${server.url}/api/undocumented`)).rejects.toThrow(/no GET operation/);
    await expect(apiFetch(`${server.url}/elsewhere`)).rejects.toThrow(/not application\/problem\+json/);
  });
});

describe('checkResponse', () => {
  it('checks a response received by other means, HEAD without its body', async () => {
    const observed = {
      method: 'HEAD',
      url: `${server.url}/api/things/1`,
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: '',
    };
    await expect(checkResponse(observed)).resolves.toBeUndefined();
    await expect(checkResponse({ ...observed, method: 'GET', body: '{"id":1}' })).rejects.toThrow(/must have required property 'url'/);
  });
});
