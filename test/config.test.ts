// Configuration: documented defaults, and a clear refusal naming the variable for a bad value.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration from the environment', () => {
  it('has working defaults for a laptop', () => {
    const config = loadConfig({}, '/srv/api');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databasePath).toBe('/srv/api/var/church.sqlite');
    expect(config.biblePublicDir).toBe('/srv/api/public');
    expect(config.bibleDatabasePath).toBe('/srv/api/var/bible.sqlite');
    expect(config.keyRateLimitPerMinute).toBe(120);
    expect(config.demoData).toBe(false);
    expect(config.redisUrl).toBeUndefined();
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:3000');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('takes the public base URL of the problem types from PUBLIC_BASE_URL, else from PORT', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.org/' }).publicBaseUrl).toBe('https://api.example.org');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.org/church-api//' }).publicBaseUrl).toBe('https://example.org/church-api');
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://127.0.0.1:8080');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DEMO_DATA', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['BIBLE_RATE_LIMIT_PER_MINUTE', '-1'],
    ['BIBLE_SEARCH_WORKERS', '0'],
    ['BIBLE_SEARCH_TIMEOUT_MS', '0'],
    ['KEY_FINGERPRINT_SECRET', 'short'],
    ['PUBLIC_BASE_URL', 'api.example.org'],
    ['PUBLIC_BASE_URL', 'ftp://api.example.org'],
    ['PUBLIC_BASE_URL', 'https://api.example.org/?x=1'],
    ['PUBLIC_BASE_URL', 'https://api.example.org/#top'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '*'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'proxy.example.org'],
    ['TRUST_PROXY', 'loopback,,10.0.0.1'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_URL', 'not a url'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://db.example.org/church'],
    ['DATABASE_URL', 'postgres://db.example.org/'],
    ['DATABASE_POOL_MAX', '0'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '10'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}:`));
  });

  it('selects PostgreSQL with DATABASE_URL, with a bounded pool and timeouts, and never echoes a malformed URL', () => {
    expect(loadConfig({}).postgres).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgresql://api:pw@db.internal:5433/church' }).postgres).toEqual({
      url: 'postgresql://api:pw@db.internal:5433/church',
      maxConnections: 10,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 5_000,
    });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://db.internal/church',
        DATABASE_POOL_MAX: '25',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_STATEMENT_TIMEOUT_MS: '15000',
      }).postgres,
    ).toMatchObject({ maxConnections: 25, connectTimeoutMs: 2_000, statementTimeoutMs: 15_000 });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://api:se cret@db internal/church' })).toThrow(/^DATABASE_URL: is not a URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://api:se cret@db internal/church' })).not.toThrow(/se cret/);
  });

  it('sets explicit connection limits and a short rate-limit store timeout, refusing a header timeout longer than the request timeout', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      limitStoreTimeoutMs: 100,
      maxConnections: 1_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
    expect(loadConfig({ MAX_CONNECTIONS: '200', LIMIT_STORE_TIMEOUT_MS: '50' })).toMatchObject({
      maxConnections: 200,
      limitStoreTimeoutMs: 50,
    });
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/^MAX_CONNECTIONS:/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/^HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/);
  });

  it('reads a Redis URL and a trust-proxy hop count', () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', TRUST_PROXY: '1' });
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.trustProxy).toBe(1);
  });

  it('reads TRUST_PROXY as a list of addresses, CIDR ranges and express names, and off by default', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 203.0.113.7, fd00::/8, uniquelocal' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '203.0.113.7',
      'fd00::/8',
      'uniquelocal',
    ]);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('refuses to trust every hop, saying why', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/X-Forwarded-For/);
  });
});
