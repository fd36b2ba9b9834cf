// The generated _redirects and _headers over a built tree, read as a Netlify-style host reads them: the service's answers, CORS everywhere, the right types.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIBLE_CACHE_CONTROL, BIBLE_CORS_HEADERS } from '../../../build/contract/http-policy.ts';
import { REPLACED_ENTRIES } from '../../../build/pipeline.ts';
import { precompress } from '../../../build/writers/compress.ts';
import { writeDatabase } from '../../../build/writers/database.ts';
import { hostRewrites } from '../../../build/writers/host-rewrites.ts';
import { writeOutputs } from '../../../build/writers/output-dir.ts';
import { searchIndexes } from '../../../build/writers/search-index.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import { TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { staticHost } from '../../helpers/static-host.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const ORIGIN = 'https://api.example.test';

describe('a static host with the generated _redirects and _headers', () => {
  let dir = '';
  let host: ReturnType<typeof staticHost>;
  let service: TestServer | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-static-host-'));
    const publicDir = join(dir, 'public');
    const versions = syntheticVersions();
    const versionHash = (info: { code: string }) => `static-host-1-${info.code}`;
    const tree = staticTree(versions, 'static-host-1', versionHash);
    await writeOutputs(
      publicDir,
      [
        ...tree,
        ...(await precompress(tree, { brotliQuality: 4 })),
        ...searchIndexes(versions, versionHash),
        ...hostRewrites({ origin: ORIGIN, publicBaseUrl: TEST_PUBLIC_BASE_URL }),
      ],
      REPLACED_ENTRIES,
    );
    await writeDatabase(join(dir, 'bible.sqlite'), versions, 'static-host-1');
    host = staticHost(publicDir);
    service = await startTestServer({ BIBLE_PUBLIC_DIR: publicDir, BIBLE_DB_PATH: join(dir, 'bible.sqlite'), DEMO_DATA: 'false' });
  });

  afterAll(async () => {
    await service?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    '/api/v1/bible/versions',
    '/api/v1/bible/books',
    '/api/v1/bible/books?lang=nl',
    '/api/v1/bible/Gn/1',
    '/api/v1/bible/gn/2',
    '/api/v1/bible/GEN/1?lang=en',
    '/api/v1/bible/Joh/3?lang=nl',
    '/api/v1/bible/books?lang=xx',
    '/api/v1/bible/Gn/1?lang=xx',
  ])('answers %s with the status, body, caching and CORS of the service', async (url) => {
    const answer = host.answer(url);
    const response = await fetch(service!.url + url);
    const body = await response.text();
    expect(answer.status).toBe(response.status);
    expect(answer.headers['access-control-allow-origin']).toBe(response.headers.get('access-control-allow-origin'));
    expect(answer.headers['access-control-expose-headers']).toBe(response.headers.get('access-control-expose-headers'));
    if (response.status === 200) {
      // The same bytes, with the same caching and a JSON type.
      expect(fs.readFileSync(join(dir, 'public', answer.file!), 'utf8')).toBe(body);
      expect(answer.headers['cache-control']).toBe(response.headers.get('cache-control'));
      expect(answer.headers['content-type']).toBe('application/json');
    } else {
      // A static host cannot name the values a client sent: the same problem type, title and status.
      const problem = JSON.parse(fs.readFileSync(join(dir, 'public', answer.file!), 'utf8'));
      const expected = JSON.parse(body);
      expect({ type: problem.type, title: problem.title, status: problem.status, parameter: problem.parameter }).toEqual({
        type: expected.type,
        title: expected.title,
        status: expected.status,
        parameter: expected.parameter,
      });
    }
  });

  it('sends another name of a book, an unknown book and a chapter past the book to the service (301 or its own 404)', async () => {
    for (const url of ['/api/v1/bible/Genese/1', '/api/v1/bible/xyz/1', '/api/v1/bible/Gn/40', '/api/v1/bible/1%20Jean/3']) {
      const path = url.split('?')[0];
      expect(host.answer(url), url).toMatchObject({ status: 200, proxiedTo: `${ORIGIN}${path}` });
    }
    const redirect = await fetch(`${service!.url}/api/v1/bible/Genese/1`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/v1/bible/Gn/1?lang=fr');
  });

  it('sends ranges, verses, passages and search to the origin given at build time', () => {
    for (const url of ['/api/v1/bible/Gn/1/1/3', '/api/v1/bible/Gn/1/2', '/api/v1/bible/passage', '/api/v1/bible/search']) {
      expect(host.answer(url), url).toMatchObject({ status: 200, proxiedTo: `${ORIGIN}${url}` });
    }
  });

  it('serves the search indexes as JSON with the Bible caching and CORS', () => {
    const answer = host.answer('/bible-search/pt.json');
    expect(answer).toMatchObject({ status: 200, file: 'bible-search/pt.json' });
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': BIBLE_CACHE_CONTROL,
      'access-control-allow-origin': '*',
    });
  });

  it('gives every file of the tree, at its own path, CORS, the Bible caching and the right type, and never one header twice', () => {
    const files = fs.readdirSync(join(dir, 'public'), { recursive: true }).map(String);
    const served = files.filter((file) => /^(api\/v1\/bible|bible-search)\/.+\.json$/.test(file));
    expect(served.length).toBeGreaterThan(30);
    for (const file of served) {
      const { headers } = host.answer(`/${file}`);
      expect(headers['access-control-allow-origin'], file).toBe(BIBLE_CORS_HEADERS['Access-Control-Allow-Origin']);
      expect(headers['cache-control'], file).toBe(BIBLE_CACHE_CONTROL);
      const type = file.includes('/_errors/') ? 'application/problem+json' : /^application\/json(; charset=utf-8)?$/;
      expect(headers['content-type'], file).toMatch(type);
      for (const [name, value] of Object.entries(headers)) {
        expect(
          value.split(', ').length === 1 || name.startsWith('access-control-') || name === 'cache-control',
          `${file}: ${name}: ${value}`,
        ).toBe(true);
      }
    }
  });

  it('points every rule that rewrites to a file at a file the tree holds, for the books it has', () => {
    for (const rule of host.rules.filter((candidate) => candidate.to.startsWith('/'))) {
      const target = rule.to.replace(':chapter', '1').slice(1);
      const book = /^api\/v1\/bible\/[a-z]{2}\/([A-Z0-9]{3})\//.exec(target)?.[1];
      // The synthetic model has three books; the full build checks all 66 (test/build/pipeline-full.test.ts).
      if (book !== undefined && !['GEN', 'PSA', 'JHN'].includes(book)) continue;
      expect(fs.existsSync(join(dir, 'public', target)), `${rule.from} → ${rule.to}`).toBe(true);
    }
  });
});
