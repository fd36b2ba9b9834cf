// Two instances on one PostgreSQL and one Redis behind nginx (round robin): keys, revocation, the shared limit, imports, and a SIGKILLed instance.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { runCli } from '../../src/cli/main.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';
import { postgresStorage, type Storage } from '../../src/storage.ts';
import { churchDocument } from '../church/church-api.ts';
import { type NginxUpstream, startNginxUpstream } from '../helpers/nginx-upstream.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { problemType, TEST_PUBLIC_BASE_URL } from '../helpers/problem.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { type InstanceProcess, startInstance } from './instance-process.ts';

const SECRET = 'e'.repeat(64);
const CHURCHES = '/api/public/v1/churches';
/** How long a condition on the load may take to come true on a loaded machine (expect.poll's default is one second). */
const POLL = { timeout: 30_000 };

describeWith(['postgres', 'redis-server', 'nginx'], 'two instances on one PostgreSQL and one Redis behind nginx', () => {
  const databases = usePostgresDatabases();
  let redis: RedisTestServer;
  let url = '';
  const instances: InstanceProcess[] = [];
  let nginx: NginxUpstream;
  /** The test's own view of the shared database, as a third instance would have. */
  let storage: Storage;
  let dir = '';

  const cli = async (...argv: string[]): Promise<string> => {
    const lines: string[] = [];
    const code = await runCli(
      argv,
      (line) => lines.push(line),
      (line) => lines.push(line),
      { DATABASE_URL: url, KEY_FINGERPRINT_SECRET: SECRET },
    );
    expect(code, lines.join('\n')).toBe(0);
    return lines.join('\n');
  };
  const get = (base: string, key: string, pathname = `${CHURCHES}/grace-paris`) =>
    fetch(base + pathname, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
  let developers = 0;
  /** A key of a new verified developer, made through the account service on the shared database. */
  const newKey = async () => (await newKeyRecord()).key;
  const newKeyRecord = async () => {
    developers += 1;
    const accounts = createAccountService({ repository: storage.accounts, fingerprinter: createFingerprinter(SECRET) });
    const developer = await accounts.createDeveloper({ name: 'Load', email: `load-${developers}@example.org`, verified: true });
    return accounts.createKey(developer.id, 'load');
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-e2e-'));
    const database = await databases.empty();
    url = database.url;
    redis = await startRedisServer(requirement('redis-server').path!);
    const env = {
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      KEY_FINGERPRINT_SECRET: SECRET,
      TRUST_PROXY: 'loopback',
      PUBLIC_BASE_URL: TEST_PUBLIC_BASE_URL,
      // The revocation test's 401s come from one address: the throttle of invalid keys is not its subject.
      INVALID_KEY_LIMIT_PER_MINUTE: '100000',
      // The shared count is the subject, not the store timeout: on a loaded machine a burst of 200 can keep Redis
      // past the default 100 ms, and each call that times out is counted in its instance alone (docs/several-instances.md).
      LIMIT_STORE_TIMEOUT_MS: '10000',
    };
    // The first migrates the empty database and loads the demo churches; the second finds both done.
    instances.push(await startInstance({ ...env, DEMO_DATA: 'true' }));
    instances.push(await startInstance({ ...env, DEMO_DATA: 'false' }));
    nginx = await startNginxUpstream(
      requirement('nginx').path!,
      instances.map((instance) => instance.port),
    );
    storage = postgresStorage(database.open());
  });
  afterAll(async () => {
    await nginx?.stop();
    for (const instance of instances) await instance.stop();
    await storage?.close();
    await redis?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves a key the CLI created on both instances, and nginx spreads requests over both', async () => {
    await cli('create-developer', '--email', 'ops@example.org', '--name', 'Ops', '--verified');
    const key = /sk_live_\w+/.exec(await cli('create-key', '--email', 'ops@example.org', '--name', 'site'))![0];
    for (const instance of instances) expect((await get(instance.url, key)).status).toBe(200);
    // A path of their own, so that the requests above (whose log lines may still be on their way) are not counted.
    for (let i = 0; i < 10; i++) expect((await get(nginx.url, key, `${CHURCHES}/grace-paris/live`)).status).toBe(200);
    // Each instance logs a request when its response has gone: wait for all ten lines before counting them.
    const served = () => instances.map((instance) => accessLines(instance, '/grace-paris/live').length);
    await expect.poll(() => served().reduce((sum, count) => sum + count), POLL).toBe(10);
    expect(served()).toEqual([5, 5]);
  });

  it('refuses a revoked key on both instances from the first request that starts after the revoke returned', async () => {
    await cli('create-developer', '--email', 'revoked@example.org', '--name', 'Revoked', '--verified');
    const key = /sk_live_\w+/.exec(await cli('create-key', '--email', 'revoked@example.org', '--name', 'site'))![0];
    const outcomes: { startedAt: number; status: number }[] = [];
    let stop = false;
    // One sequential client per instance and one through nginx, well under the key's 120 a minute.
    const load = [...instances.map((instance) => instance.url), nginx.url].map(async (base) => {
      while (!stop) {
        const startedAt = performance.now();
        const response = await get(base, key);
        await response.arrayBuffer();
        outcomes.push({ startedAt, status: response.status });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    await expect.poll(() => outcomes.filter((outcome) => outcome.status === 200).length, POLL).toBeGreaterThanOrEqual(10);
    const id = /^(\d+)\t/m.exec(await cli('list-keys', '--email', 'revoked@example.org'))![1];
    await cli('revoke-key', '--email', 'revoked@example.org', '--id', id);
    const revokedAt = performance.now();
    await expect.poll(() => outcomes.filter((outcome) => outcome.startedAt > revokedAt).length, POLL).toBeGreaterThanOrEqual(15);
    stop = true;
    await Promise.all(load);
    const after = outcomes.filter((outcome) => outcome.startedAt > revokedAt);
    expect(after.filter((outcome) => outcome.status !== 401)).toEqual([]);
    // Before it, the key worked (a request already under way while the revoke committed may be refused: it is revoked).
    expect(outcomes.filter((outcome) => outcome.startedAt < revokedAt && outcome.status === 200).length).toBeGreaterThanOrEqual(10);
  });

  it('lets exactly 120 of 200 concurrent requests with one key through, across both instances', async () => {
    const { key, record } = await newKeyRecord();
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(nginx.url, key)));
    const results = await Promise.all(
      responses.map(async (response) => ({ status: response.status, type: ((await response.json()) as { type?: string }).type })),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(120);
    expect(results.filter((result) => result.status !== 200)).toEqual(
      Array(80).fill({ status: 429, type: problemType('key-rate-limited') }),
    );
    // The lines of this key's requests (the logs are written in batches: a line of an earlier request may come after these began).
    const served = () =>
      instances.map((instance) => accessLines(instance).filter((line) => line.includes(`"apiKeyId":${record.id},`)).length);
    await expect.poll(() => served().reduce((sum, count) => sum + count), POLL).toBe(200);
    expect(
      served().every((count) => count > 0),
      String(served()),
    ).toBe(true);
  });

  it('shows a church imported through one database client on both instances at once', async () => {
    const key = await newKey();
    const file = path.join(dir, 'import.json');
    fs.writeFileSync(file, JSON.stringify({ churches: [churchDocument('new-on-both', { name: 'New on both' })] }));
    for (const instance of instances) expect((await get(instance.url, key, `${CHURCHES}/new-on-both`)).status).toBe(404);
    await cli('import-churches', file);
    for (const instance of instances) {
      const response = await get(instance.url, key, `${CHURCHES}/new-on-both`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { name: string }).name).toBe('New on both');
    }
  });

  it('keeps answering through the other instance when one is SIGKILLed under load, and loses nothing committed', async () => {
    // Sixteen keys, so that the load stays under each key's 120 a minute: every answer should be a 200.
    const created = await Promise.all(Array.from({ length: 16 }, () => newKeyRecord()));
    const keys = created.map((made) => made.key);
    const outcomes: { startedAt: number; status: number }[] = [];
    const committed: string[] = [];
    let stop = false;
    let turn = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const startedAt = performance.now();
        const key = keys[turn++ % keys.length];
        const status = await get(nginx.url, key)
          .then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          })
          .catch(() => 0);
        outcomes.push({ startedAt, status });
      }
    });
    // Writes that commit while the instance dies: accounts made through the shared database.
    const writes = (async () => {
      for (let i = 0; !stop; i++) {
        const email = `written-${i}@example.org`;
        await storage.accounts.insertDeveloper({ name: 'Written', email, emailVerifiedAt: null, createdAt: new Date().toISOString() });
        committed.push(email);
      }
    })();
    await expect.poll(() => outcomes.length, POLL).toBeGreaterThanOrEqual(40);
    const [victim, survivor] = instances;
    victim.kill('SIGKILL');
    await victim.exited;
    const killedAt = performance.now();
    const servedBefore = accessLines(survivor).length;
    await expect.poll(() => outcomes.filter((outcome) => outcome.startedAt > killedAt).length, POLL).toBeGreaterThanOrEqual(40);
    stop = true;
    await Promise.all([...load, writes]);

    const after = outcomes.filter((outcome) => outcome.startedAt > killedAt);
    expect(after.filter((outcome) => outcome.status !== 200)).toEqual([]);
    await expect.poll(() => accessLines(survivor).length - servedBefore, POLL).toBeGreaterThanOrEqual(after.length);
    // Every write that returned is there, on the database both instances share.
    for (const email of committed) expect(await storage.accounts.developerByEmail(email), email).toBeDefined();
    expect(committed.length).toBeGreaterThan(0);
    // And the instances' own writes: "last used" of every key served, by whichever instance wrote it first.
    for (const { record } of created)
      expect((await storage.accounts.listKeys(record.developerId))[0].lastUsedAt, record.name).not.toBeNull();
  });
});

/** The access log lines of church requests an instance wrote (one per response), of one path when given. */
function accessLines(instance: InstanceProcess, pathname = CHURCHES): string[] {
  return instance.logs.filter(
    (line) => line.includes('"status"') && line.includes(pathname.startsWith(CHURCHES) ? pathname : `${CHURCHES}${pathname}"`),
  );
}
