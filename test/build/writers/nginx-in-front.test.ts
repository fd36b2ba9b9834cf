// The generated nginx config in front of the running service: every Bible URL answers byte for byte as the service does, and clients keep their own limits.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLACED_ENTRIES } from '../../../build/pipeline.ts';
import { precompress } from '../../../build/writers/compress.ts';
import { writeDatabase } from '../../../build/writers/database.ts';
import { hostRewrites } from '../../../build/writers/host-rewrites.ts';
import { writeOutputs } from '../../../build/writers/output-dir.ts';
import { searchIndexes } from '../../../build/writers/search-index.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import { type Exchange, exchange } from '../../helpers/http-exchange.ts';
import { type NginxTestServer, startNginx } from '../../helpers/nginx.ts';
import { TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/** Per-address limit of the service on ranges and search: the budget tests spend it from other addresses. */
const BIBLE_LIMIT = 60;

/** The headers a client or a cache acts on; RateLimit itself (the remaining count) differs by design between two requests. */
const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'cache-control',
  'vary',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'allow',
  'x-content-type-options',
  'retry-after',
  'ratelimit-policy',
] as const;

interface Case {
  name: string;
  /** A 200: it carries an ETag, and revalidating it answers 304. */
  found?: true;
  path: string;
  method?: string;
  /** Answered by the service through nginx's proxy: the ETag is the service's own, so it must be the same too. */
  proxied: boolean;
}

const CASES: Case[] = [
  { name: 'versions', found: true, path: '/api/v1/bible/versions', proxied: false },
  { name: 'books', found: true, path: '/api/v1/bible/books?lang=en', proxied: false },
  { name: 'books, default lang', found: true, path: '/api/v1/bible/books', proxied: false },
  { name: 'chapter', found: true, path: '/api/v1/bible/gn/1', proxied: false },
  { name: 'chapter by USFM code', found: true, path: '/api/v1/bible/GEN/2?lang=en', proxied: false },
  { name: 'HEAD of a chapter', path: '/api/v1/bible/Gn/1', method: 'HEAD', proxied: false },
  { name: 'range', found: true, path: '/api/v1/bible/Gen/1/1/3?lang=en', proxied: true },
  { name: 'one verse', found: true, path: '/api/v1/bible/Jn/3/16', proxied: true },
  { name: 'passage', found: true, path: '/api/v1/bible/passage?ref=Gn%201%3A1-3%3B%20Jn%203%3A16&lang=fr', proxied: true },
  { name: 'search', found: true, path: '/api/v1/bible/search?q=terre', proxied: true },
  { name: 'unknown abbreviation', path: '/api/v1/bible/xyz/1?lang=en', proxied: false },
  { name: 'chapter past the book', path: '/api/v1/bible/gn/40', proxied: false },
  { name: 'bad lang on books', path: '/api/v1/bible/books?lang=xx', proxied: false },
  { name: 'bad lang on a chapter', path: '/api/v1/bible/gn/1?lang=xx', proxied: false },
  { name: 'bad lang on a range', path: '/api/v1/bible/gn/1/1/2?lang=xx', proxied: true },
  { name: 'raw tree path', path: '/api/v1/bible/fr/GEN/1.json', proxied: false },
  { name: 'another method', path: '/api/v1/bible/gn/1', method: 'POST', proxied: false },
];

describeWith(['nginx'], 'the generated nginx config in front of the service', () => {
  let dir = '';
  let nginx: NginxTestServer | undefined;
  let service: TestServer | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-in-front-'));
    const publicDir = join(dir, 'public');
    const databasePath = join(dir, 'bible.sqlite');
    const versions = syntheticVersions();
    const versionHash = (info: { code: string }) => `in-front-1-${info.code}`;
    const tree = staticTree(versions, 'in-front-1', versionHash);
    const files = [
      ...tree,
      ...(await precompress(tree, { brotliQuality: 4 })),
      ...searchIndexes(versions, versionHash),
      ...hostRewrites({ origin: 'https://api.example.test', publicBaseUrl: TEST_PUBLIC_BASE_URL }),
    ];
    await writeOutputs(publicDir, files, REPLACED_ENTRIES);
    await writeDatabase(databasePath, versions, 'in-front-1');
    // One proxy in front: TRUST_PROXY for nginx on the same machine, as docs/deploy-vps.md sets it.
    service = await startTestServer({
      BIBLE_PUBLIC_DIR: publicDir,
      BIBLE_DB_PATH: databasePath,
      DEMO_DATA: 'false',
      TRUST_PROXY: '1',
      BIBLE_RATE_LIMIT_PER_MINUTE: String(BIBLE_LIMIT),
    });
    nginx = await startNginx(requirement('nginx').path!, publicDir, Number(new URL(service.url).port));
  });

  afterAll(async () => {
    await nginx?.stop();
    await service?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('answers as the service does: status, body bytes and the headers that matter', () => {
    for (const encoding of ['identity', 'gzip']) {
      it.each(CASES)(`$name (Accept-Encoding: ${encoding})`, async ({ path, method = 'GET', proxied }) => {
        const headers = { 'accept-encoding': encoding };
        const [fromNginx, fromService] = await Promise.all([
          exchange(nginx!.url + path, { method, headers }),
          exchange(service!.url + path, { method, headers }),
        ]);
        expect(comparable(fromNginx, proxied)).toEqual(comparable(fromService, proxied));
      });
    }
  });

  it.each(CASES.filter((testCase) => testCase.found))(
    'revalidates $name with the ETag each host gave: 304 with the same caching and CORS headers',
    async ({ path, proxied }) => {
      const [viaNginx, direct] = await Promise.all(
        [nginx!.url, service!.url].map(async (origin) => {
          const first = await exchange(origin + path);
          expect(first.status, origin).toBe(200);
          expect(first.headers.etag, origin).toMatch(/^"/);
          return exchange(origin + path, { headers: { 'if-none-match': first.headers.etag! } });
        }),
      );
      expect(viaNginx.status).toBe(304);
      expect(comparable(viaNginx, proxied)).toEqual(comparable(direct, proxied));
    },
  );

  it('serves the search indexes as JSON with the Bible caching and CORS', async () => {
    const index = await exchange(`${nginx!.url}/bible-search/en.json`);
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(index.headers['access-control-allow-origin']).toBe('*');
    expect(index.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(JSON.parse(index.body.toString('utf8'))).toMatchObject({ lang: 'en' });
  });

  describe('per-address limits behind the proxy', () => {
    const range = '/api/v1/bible/Gn/1/1/2';

    it('count the client nginx saw: a forged X-Forwarded-For neither escapes the limit nor reaches the service', async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= BIBLE_LIMIT; i++) {
        const forged = { 'x-forwarded-for': `198.51.100.${i % 250}` };
        statuses.push((await exchange(nginx!.url + range, { headers: forged, localAddress: '127.0.0.2' })).status);
      }
      expect(statuses.slice(0, BIBLE_LIMIT)).toEqual(Array(BIBLE_LIMIT).fill(200));
      expect(statuses[BIBLE_LIMIT]).toBe(429);
      const addresses = new Set(
        service!.logs
          .map((line) => JSON.parse(line) as { message: string; path?: string; ip?: string })
          .filter((entry) => entry.message === 'request' && entry.path === range)
          .map((entry) => entry.ip),
      );
      expect([...addresses]).toEqual(['127.0.0.2']);
    });

    it('give two clients behind the proxy separate budgets', async () => {
      expect((await exchange(nginx!.url + range, { localAddress: '127.0.0.2' })).status).toBe(429);
      const other = await exchange(nginx!.url + range, { localAddress: '127.0.0.3' });
      expect(other.status).toBe(200);
      expect(other.headers.ratelimit).toMatch(new RegExp(`r=${BIBLE_LIMIT - 1};`));
    });
  });
});

/** What must be identical between the two hosts; the ETag too when the service made both. */
function comparable(response: Exchange, proxied: boolean): Record<string, unknown> {
  const headers = Object.fromEntries(COMPARED_HEADERS.map((name) => [name, response.headers[name] ?? null]));
  return {
    status: response.status,
    body: response.body.toString('base64'),
    ...headers,
    ...(proxied ? { etag: response.headers.etag ?? null } : {}),
  };
}
