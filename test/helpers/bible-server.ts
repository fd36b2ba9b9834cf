// Test helper: a Bible fixture and the service over it (no demo churches), started before a file's tests and removed after them.
import { afterAll, beforeAll } from 'vitest';
import { type BibleFixture, buildBibleFixture } from './bible-fixture.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.ts';

export interface BibleServer {
  /** The built fixture (its folders, build hash); set once the file's beforeAll ran. */
  readonly bible: BibleFixture;
  /** The service serving it; set once the file's beforeAll ran. */
  readonly server: TestServer;
}

/**
 * Call at the top of a test file (or describe block): builds the fixture from `versions` (the
 * shared synthetic ones by default) and starts the service on it (with `options`) before the
 * tests, closes and removes both after them.
 *
 * @example const bibleServer = useBibleServer(); const api = (p: string) => `${bibleServer.server.url}/api/v1/bible${p}`;
 */
export function useBibleServer(versions?: Parameters<typeof buildBibleFixture>[0], options: TestServerOptions = {}): BibleServer {
  let bible: BibleFixture | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    bible = await buildBibleFixture(versions);
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false' }, options);
  });
  afterAll(async () => {
    await server?.close();
    bible?.remove();
  });
  return {
    get bible() {
      if (!bible) throw new Error('useBibleServer: the Bible is built in beforeAll');
      return bible;
    },
    get server() {
      if (!server) throw new Error('useBibleServer: the server starts in beforeAll');
      return server;
    },
  };
}
