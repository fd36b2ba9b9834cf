// Test helper: the throwaway PostgreSQL server lives in scripts/lib (the benchmark starts one too); tests import it from here.
export { type PostgresTestServer, startPostgresServer } from '../../scripts/lib/postgres-server.ts';
