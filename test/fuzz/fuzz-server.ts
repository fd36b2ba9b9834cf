// The instance the generated-request tests run against: the real app over a small synthetic Bible, limits out of the way.
import { createTestKey } from '../helpers/api-key.ts';
import { buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

export interface FuzzServer {
  server: TestServer;
  /** A working API key, for church endpoints. */
  key: string;
  close(): Promise<void>;
}

/** Limits would turn most of a run into 429s; they have their own tests. */
export async function startFuzzServer(): Promise<FuzzServer> {
  const bible = await buildBibleFixture();
  const server = await startTestServer({
    ...bible.env,
    LOG_LEVEL: 'warn',
    BIBLE_RATE_LIMIT_PER_MINUTE: '0',
    KEY_RATE_LIMIT_PER_MINUTE: '1000000',
    INVALID_KEY_LIMIT_PER_MINUTE: '1000000',
  });
  return {
    server,
    key: await createTestKey(server.services),
    async close() {
      await server.close();
      bible.remove();
    },
  };
}
