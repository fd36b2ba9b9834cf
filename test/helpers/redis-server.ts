// Test helper: the throwaway redis-server lives in scripts/lib (the benchmark starts one too); tests import it from here.
export { freePort, type RedisTestServer, startRedisServer } from '../../scripts/lib/redis-server.ts';
