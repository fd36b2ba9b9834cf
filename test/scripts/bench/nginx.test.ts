// The static ceiling's nginx.conf: no kept-alive connection of the load generator closed by nginx during a run.
import { describe, expect, it } from 'vitest';
import { nginxConfig } from '../../../scripts/bench/nginx.ts';

describe('nginxConfig', () => {
  it('lets one connection carry more requests than a whole run sends, so nginx never closes one mid-run', () => {
    const config = nginxConfig({ port: 8080, publicDir: '/srv/public', upstream: '127.0.0.1:3000', workDir: '/tmp/run' });
    const limit = Number(/^\s*keepalive_requests (\d+);$/m.exec(config)?.[1]);
    // The fastest server measured answered about 80,000 a second; a throughput figure lasts 10 s. nginx's default is 1,000.
    expect(limit).toBeGreaterThan(80_000 * 10);
  });
});
