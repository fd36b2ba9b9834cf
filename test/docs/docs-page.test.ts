// The /docs page in a real browser: Swagger UI renders every endpoint from local assets, and offers no key field.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_FLAGS } from '../helpers/chromium.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHROMIUM = requirement('chromium').path;

describeWith(['chromium'], 'the docs page rendered by headless Chromium', () => {
  let server: TestServer;
  let dom = '';

  beforeAll(async () => {
    server = await startTestServer();
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-chromium-'));
    try {
      // Flags as this machine needs them: no sandbox as root, no background connections.
      const { stdout } = await promisify(execFile)(
        CHROMIUM!,
        [
          ...CHROMIUM_FLAGS,
          `--user-data-dir=${profile}`,
          '--virtual-time-budget=15000',
          '--dump-dom',
          // Deep link: the versions operation opens, where a "Try it out" button would stand.
          `${server.url}/docs#/Bible/listBibleVersions`,
        ],
        { maxBuffer: 32 * 1024 * 1024, timeout: 60_000 },
      );
      dom = stdout;
    } finally {
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  it('shows all 21 endpoints of the OpenAPI document (19 of the API, 2 probes)', () => {
    const paths = [...dom.matchAll(/class="opblock-summary-path" data-path="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(paths).size).toBe(21);
    expect(paths).toContain('/readyz');
    expect(paths).toContain('/api/v1/bible/{abbr}/{chapter}/{from}/{to}');
    expect(paths).toContain('/api/public/v1/churches/{slug}/gallery/{albumId}/photos');
  });

  it('shows the API title and version from the document', () => {
    expect(dom).toContain('Church Data and Bible API');
    expect(dom).toContain('OAS 3.1');
  });

  it('offers no "Try it out" button in an open operation, so no key is typed or sent from the browser', () => {
    expect(dom).toContain('opblock-body');
    expect(dom).not.toContain('try-out__btn');
  });
});
