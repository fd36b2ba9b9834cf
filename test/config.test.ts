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
    expect(config.readyzBible).toBe(true);
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
    ['BIBLE_ANSWER_CACHE_BYTES', '-1'],
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
    ['READYZ_BIBLE', 'sometimes'],
    ['SMTP_URL', 'nope'],
    ['SMTP_URL', 'mail.example.org:587'],
    ['SMTP_URL', 'https://mail.example.org'],
    ['SMTP_URL', 'smtp://'],
    ['MAIL_FROM', 'Church API'],
    ['MAIL_FROM', 'no-reply at example.org'],
    ['MAIL_FROM', 'a,b@example.org'],
    ['MAIL_FROM', 'Church API <no-reply>'],
    ['PUBLIC_SITE_URL', 'churches.example.org'],
    ['PUBLIC_SITE_URL', 'mailto:office@example.org'],
    ['PORTAL_URL', '/portal'],
    ['HOST', '0.0.0.0:3000'],
    ['HOST', 'http://127.0.0.1'],
    ['HOST', 'my host'],
    ['SESSION_COOKIE_SECURE', 'yes'],
    ['SESSION_IDLE_HOURS', '0'],
    ['PASSWORD_SCRYPT_N', '100000'],
    ['MAX_CONNECTIONS', 'many'],
    ['KEEP_ALIVE_TIMEOUT_MS', '1'],
    ['REQUEST_TIMEOUT_MS', '99'],
    ['INVALID_KEY_LIMIT_PER_MINUTE', '0'],
    ['KEY_RATE_LIMIT_PER_MINUTE', '1.5'],
    ['BIBLE_PASSAGE_MAX_VERSES', '0'],
    ['BIBLE_SEARCH_QUEUE', '-1'],
    ['LIMIT_STORE_TIMEOUT_MS', '0'],
    ['DATABASE_LOCK_WAIT_MS', '-1'],
    ['DATABASE_LOCK_WAIT_MS', '60001'],
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

  it('sets explicit connection limits, a short lock wait and rate-limit store timeout, refusing a header timeout longer than the request timeout', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseLockWaitMs: 1_000,
      limitStoreTimeoutMs: 100,
      maxConnections: 1_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
    expect(loadConfig({ MAX_CONNECTIONS: '200', LIMIT_STORE_TIMEOUT_MS: '50', DATABASE_LOCK_WAIT_MS: '0' })).toMatchObject({
      databaseLockWaitMs: 0,
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

  it('reads SMTP_URL and MAIL_FROM as nodemailer takes them, and never echoes an SMTP_URL it refuses (it may hold a password)', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://api:pw@mail.example.org:465' }).smtpUrl).toBe('smtps://api:pw@mail.example.org:465');
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.org:587?name=api.example.org' }).smtpUrl).toBe(
      'smtp://mail.example.org:587?name=api.example.org',
    );
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    // The one pooled transport's cap and timeouts are the service's settings, not the URL's.
    expect(() => loadConfig({ SMTP_URL: 'smtp://api:s3cret@mail.example.org:587?pool=false&socketTimeout=0' })).toThrow(
      /^SMTP_URL: sets pool, socketTimeout, which the service sets itself/,
    );
    expect(loadConfig({ SMTP_MAX_CONNECTIONS: '3', SMTP_TIMEOUT_MS: '500' })).toMatchObject({ smtpMaxConnections: 3, smtpTimeoutMs: 500 });
    expect(() => loadConfig({ SMTP_MAX_CONNECTIONS: '0' })).toThrow(/^SMTP_MAX_CONNECTIONS: must be from 1 to 50/);
    for (const from of ['no-reply@example.org', 'Church API <no-reply@example.org>', '"API, the church one" <no-reply@example.org>']) {
      expect(loadConfig({ MAIL_FROM: from }).mailFrom).toBe(from);
    }
    expect(() => loadConfig({ SMTP_URL: 'https://api:s3cret@mail.example.org' })).toThrow(
      /^SMTP_URL: must start with smtp:\/\/ or smtps:\/\//,
    );
    expect(() => loadConfig({ SMTP_URL: 'smtp//api:s3cret@mail' })).toThrow(/^SMTP_URL: is not a URL; expected smtp:\/\//);
    for (const value of ['https://api:s3cret@mail.example.org', 'smtp//api:s3cret@mail']) {
      expect(() => loadConfig({ SMTP_URL: value })).not.toThrow(/s3cret/);
    }
  });

  it('reads RESERVED_EMAIL_IGNORE as a list of plus-tags and dots, or none; plus-tags by default', () => {
    expect(loadConfig({}).reservedEmailMatching).toEqual({ plusTags: true, dots: false });
    expect(loadConfig({ RESERVED_EMAIL_IGNORE: 'dots, plus-tags' }).reservedEmailMatching).toEqual({ plusTags: true, dots: true });
    expect(loadConfig({ RESERVED_EMAIL_IGNORE: 'none' }).reservedEmailMatching).toEqual({ plusTags: false, dots: false });
    expect(() => loadConfig({ RESERVED_EMAIL_IGNORE: 'case' })).toThrow(/^RESERVED_EMAIL_IGNORE: must be none or a comma-separated list/);
  });

  it('listens on an IP address or a host name, and takes PUBLIC_SITE_URL without its trailing slash', () => {
    for (const host of ['0.0.0.0', '::', '::1', 'localhost', 'api-1.internal']) expect(loadConfig({ HOST: host }).host).toBe(host);
    expect(loadConfig({ PUBLIC_SITE_URL: 'https://pages.example.net/c/' }).publicSiteUrl).toBe('https://pages.example.net/c');
    expect(loadConfig({}).publicSiteUrl).toBe('https://churches.example.org');
  });

  it('allows a plain http OpenID Connect issuer only on this machine', () => {
    const client = { OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 'secret' };
    expect(loadConfig({ ...client, OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidc?.issuer).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ ...client, OIDC_ISSUER: 'https://id.example.org' }).oidc?.issuer).toBe('https://id.example.org');
    expect(() => loadConfig({ ...client, OIDC_ISSUER: 'http://id.example.org' })).toThrow(/^OIDC_ISSUER: must be an https:\/\/ URL/);
  });
});
