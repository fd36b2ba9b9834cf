// The generated vercel.json read by Vercel's own routing library (@vercel/routing-utils) over the synthetic build: every book of every language by the spec's URL, lang matched with `has`, the rest sent to the service.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIBLE_CACHE_CONTROL } from '../../../build/contract/http-policy.ts';
import { hostRewrites } from '../../../build/writers/host-rewrites.ts';
import { type BibleFixture, buildBibleFixture } from '../../helpers/bible-fixture.ts';
import { netlifyCases } from '../../helpers/netlify-host.ts';
import { TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { vercelCases, vercelHost, vercelMismatches } from '../../helpers/vercel-host.ts';

const ORIGIN = 'https://api.example.test';

describe("the generated vercel.json under Vercel's own routing library", () => {
  let bible: BibleFixture;
  let host: ReturnType<typeof vercelHost>;

  beforeAll(async () => {
    bible = await buildBibleFixture();
    for (const file of hostRewrites({ origin: ORIGIN, publicBaseUrl: TEST_PUBLIC_BASE_URL, target: 'vercel' })) {
      fs.writeFileSync(path.join(bible.publicDir, file.path), file.content);
    }
    host = vercelHost(bible.publicDir);
  });

  afterAll(() => bible?.remove());

  it('is read without error, within the 2,048 routes Vercel allows', () => {
    expect(host.error).toBeNull();
    expect(host.rewriteCount).toBeGreaterThan(300);
    expect(host.routes.length).toBeLessThanOrEqual(2048);
  });

  it("answers every book of every language, by abbreviation and USFM code in each case, with lang and without, and sends unknown books, unknown langs and the service's routes to the origin", () => {
    const cases = vercelCases(netlifyCases(bible.publicDir, ORIGIN), ORIGIN);
    expect(cases.length).toBeGreaterThan(100);
    expect(vercelMismatches(host, cases)).toEqual([]);
  });

  it('sends what only the service can tell apart to it (a lang in upper case, a chapter written 01), and serves a book in mixed case (Vercel matches paths without regard to case)', () => {
    expect(host.answer('/api/v1/bible/GEN/1?lang=EN')).toMatchObject({ proxiedTo: `${ORIGIN}/api/v1/bible/GEN/1` });
    expect(host.answer('/api/v1/bible/GEN/01?lang=en')).toMatchObject({ proxiedTo: `${ORIGIN}/api/v1/bible/GEN/01` });
    expect(host.answer('/api/v1/bible/jOhN/3?lang=en')).toMatchObject({ status: 200, file: 'api/v1/bible/en/JHN/3.json' });
  });

  it("gives the Bible's paths the service's CORS and caching", () => {
    expect(host.answer('/api/v1/bible/JHN/3?lang=en').headers).toMatchObject({
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': BIBLE_CACHE_CONTROL,
    });
    expect(host.answer('/bible-search/fr.json')).toMatchObject({ status: 200, headers: { 'Access-Control-Allow-Origin': '*' } });
  });

  it('answers a chapter past the end of a book with the host 404 (a known gap: docs/static-hosts.md)', () => {
    expect(host.answer('/api/v1/bible/GEN/40?lang=en')).toMatchObject({ status: 404 });
  });
});
