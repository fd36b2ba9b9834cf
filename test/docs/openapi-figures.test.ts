// The OpenAPI document states this server's figures and addresses: change a setting and the document says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openApiDocument } from '../../src/docs/openapi.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

type Json = Record<string, unknown>;
interface Document {
  info: { description: string };
  servers: { url: string }[];
  paths: Record<string, { get: { operationId: string; responses: Record<string, { description: string; headers?: Json }> } }>;
  components: { schemas: Record<string, { properties: Record<string, Json> }> };
}

const documentOf = (env: Record<string, string>) => openApiDocument(loadConfig(env)) as unknown as Document;
const operation = (document: Document, operationId: string) =>
  Object.values(document.paths).find((item) => item.get.operationId === operationId)!.get;

describe('the figures of the OpenAPI document', () => {
  it('quote the configured limits: key, invalid keys, Bible ranges and search', () => {
    const standard = documentOf({});
    expect(standard.info.description).toContain('120 requests per minute per key');
    const changed = documentOf({ KEY_RATE_LIMIT_PER_MINUTE: '200', INVALID_KEY_LIMIT_PER_MINUTE: '7', BIBLE_RATE_LIMIT_PER_MINUTE: '900' });
    expect(changed.info.description).toContain('200 requests per minute per key');
    expect(changed.info.description).toContain('more than 7 missing or invalid keys in a minute');
    expect(changed.info.description).toContain('a per-address limit of 900 requests a minute');
    expect(JSON.stringify(changed)).not.toMatch(/\b120\b/);

    const church = operation(changed, 'getChurchPosts').responses;
    expect(church['429'].description).toContain('More than 200 requests within a minute with this key, or more than 7 requests');
    expect(JSON.stringify(church['200'].headers)).toContain('\\"200-per-minute-per-key\\"; q=200; w=60');
    expect(JSON.stringify(operation(changed, 'searchBible').responses['200'].headers)).toContain('\\"900-per-minute-per-address\\"; q=900');
  });

  it('promise no Bible 429 and no Bible RateLimit header when the Bible limit is off', () => {
    const document = documentOf({ BIBLE_RATE_LIMIT_PER_MINUTE: '0' });
    expect(document.info.description).toContain('No Bible endpoint is rate-limited on this server.');
    for (const id of ['getVerseRange', 'searchBible']) {
      const responses = operation(document, id).responses;
      expect(Object.keys(responses), id).not.toContain('429');
      expect(Object.keys(responses['200'].headers ?? {}), id).not.toContain('RateLimit');
    }
    expect(Object.keys(operation(documentOf({}), 'getVerseRange').responses)).toContain('429');
  });

  it("point at this service's public address: server, problem types, problems page and portal", () => {
    const document = documentOf({ PUBLIC_BASE_URL: 'https://api.example.org/church-api/' });
    expect(document.servers).toEqual([{ url: 'https://api.example.org/church-api', description: 'This service' }]);
    expect(document.info.description).toContain('[developer portal](https://api.example.org/church-api/portal/)');
    expect(document.info.description).toContain('(https://api.example.org/church-api/docs/problems)');
    const type = document.components.schemas.Problem.properties.type as { pattern: string };
    expect(new RegExp(type.pattern).test('https://api.example.org/church-api/docs/problems#church-not-found')).toBe(true);
    expect(new RegExp(type.pattern).test('https://api.example.org/docs/problems#church-not-found')).toBe(false);
  });
});

describe('the document the service serves', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ KEY_RATE_LIMIT_PER_MINUTE: '200', LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is the one made from the server's own settings", async () => {
    const served = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(served).toEqual(openApiDocument(server.services.config));
    expect((served as Document).info.description).toContain('200 requests per minute per key');
  });
});
