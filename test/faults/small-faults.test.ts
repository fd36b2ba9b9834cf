// The smaller faults of issue 11: CONNECT, the RateLimit-Policy partition key, database file modes, nosniff, canonical paths, keys in URLs.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createHttpServer } from '../../src/http/http-server.ts';
import { apiFetch, getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

describe('small faults', () => {
  let app: TestServer;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    app = await startTestServer();
    // The server of `npm start` (src/server.ts), around the same app.
    server = createHttpServer(createApp(app.services), { ...app.services.config }, app.services.logger);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  it('answer CONNECT with a 405 problem and Allow instead of closing the connection', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = reply.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    expect(head).toMatch(/\r\nAllow: GET, HEAD\r\n/i);
    expect(head).toMatch(/\r\nContent-Type: application\/problem\+json/i);
    expect(head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
    expect(JSON.parse(body)).toMatchObject({ status: 405, type: problemType('method-not-allowed') });
  });

  it('answer a request the HTTP parser refuses with a 400 problem, not a bare status', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/v1/bible/versions HTTP/9.Z\r\nHost: x\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = reply.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\nContent-Type: application\/problem\+json/i);
    expect(JSON.parse(body)).toMatchObject({ status: 400, type: problemType('malformed-request') });
  });

  it("derive the RateLimit-Policy partition key from nothing the client could map to the key's database id", async () => {
    const email = 'partition@example.org';
    const key = await createTestKey(app.services, { email });
    const other = await createTestKey(app.services);
    const partition = async (apiKey: string) => {
      const policy = (await getWithKey(app.url + CHURCH, apiKey)).headers.get('ratelimit-policy') ?? '';
      return /pk=:([^:]+):/.exec(policy)?.[1];
    };
    const pk = await partition(key);
    expect(pk).toBeDefined();
    expect(await partition(key)).toBe(pk);
    expect(await partition(other)).not.toBe(pk);
    // express-rate-limit's partition key is base64(hex(sha256(counting key)).slice(0, 12)): not of `key:<id>`, for any small id.
    const developer = (await app.services.accountRepository.developerByEmail(email))!;
    const [record] = await app.services.accountRepository.listKeys(developer.id);
    const fromId = (id: number) => Buffer.from(createHash('sha256').update(`key:${id}`).digest('hex').slice(0, 12)).toString('base64');
    expect(record.id).toBeLessThan(1_000);
    for (let id = 0; id < 1_000; id++) expect(pk).not.toBe(fromId(id));
  });

  it('create the database and its -wal and -shm files readable by the owner only (0600)', () => {
    const database = path.join(app.dir, 'church.sqlite');
    for (const file of [database, `${database}-wal`, `${database}-shm`]) {
      expect(fs.statSync(file).mode & 0o777, file).toBe(0o600);
    }
  });

  it('send X-Content-Type-Options: nosniff with problem responses', async () => {
    for (const response of [
      await apiFetch(`${app.url}/nowhere`),
      await getWithKey(app.url + CHURCH),
      await apiFetch(app.url + CHURCH, { method: 'POST' }),
    ]) {
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('answer one canonical path per resource: other letter cases and a trailing slash are 404', async () => {
    const key = await createTestKey(app.services);
    expect((await getWithKey(app.url + CHURCH, key)).status).toBe(200);
    for (const variant of [
      `${CHURCH}/`,
      CHURCH.toUpperCase(),
      '/API/public/v1/churches/grace-paris',
      '/api/public/v1/Churches/grace-paris',
      '/API/V1/BIBLE/VERSIONS',
      '/api/v1/bible/versions/',
      '/api/v1/bible/VERSIONS',
      '/api/openapi.json/',
      '/API/openapi.json',
      '/docs/',
    ]) {
      const response = await getWithKey(app.url + variant, key);
      expect(response.status, variant).toBe(404);
      expect(await response.json(), variant).toMatchObject({ type: problemType('path-not-found') });
    }
  });

  it('never log a key sent percent-encoded in the URL', async () => {
    const key = await createTestKey(app.services);
    const encoded = [...key].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const before = app.logs.length;
    await getWithKey(`${app.url}/api/public/v1/churches/${encoded}`, key);
    await getWithKey(`${app.url}/api/public/v1/churches/grace-paris?q=${encoded}`, key);
    await getWithKey(`${app.url}/api/v1/bible/${encoded}/1`);
    const lines = app.logs.slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const randomPart = key.slice(8, 41);
    const encodedRandomPart = encoded.slice(8 * 3, 41 * 3);
    for (const line of lines) {
      expect(line).not.toContain(randomPart);
      expect(line.toLowerCase()).not.toContain(encodedRandomPart.toLowerCase());
    }
  });
});
