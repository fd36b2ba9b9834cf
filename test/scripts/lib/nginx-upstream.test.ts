// The throwaway nginx load balancer: a client's kept-alive connection closes after nginx's default number of requests, or after the number it is given.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { type NginxUpstream, startNginxUpstream } from '../../../scripts/lib/nginx-upstream.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';

describeWith(['nginx'], 'startNginxUpstream', () => {
  let upstream: http.Server | undefined;
  let nginx: NginxUpstream | undefined;
  afterEach(async () => {
    await nginx?.stop();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    nginx = undefined;
    upstream = undefined;
  });

  /** The Connection header of each of `count` answers sent one after the other over one kept-alive connection. */
  async function connectionHeaders(url: string, count: number): Promise<(string | undefined)[]> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const headers: (string | undefined)[] = [];
    for (let index = 0; index < count; index++) {
      headers.push(
        await new Promise<string | undefined>((resolve, reject) => {
          http
            .get(`${url}/docs`, { agent }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.headers.connection));
            })
            .on('error', reject);
        }),
      );
    }
    agent.destroy();
    return headers;
  }

  async function startBehindNginx(options?: { clientKeepaliveRequests: number }): Promise<string> {
    upstream = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    nginx = await startNginxUpstream(requirement('nginx').path!, [(upstream.address() as AddressInfo).port], options);
    return nginx.url;
  }

  it('closes a client connection after the requests it is given (keepalive_requests)', async () => {
    const url = await startBehindNginx({ clientKeepaliveRequests: 3 });
    expect(await connectionHeaders(url, 4)).toEqual(['keep-alive', 'keep-alive', 'close', 'keep-alive']);
  });

  it("keeps nginx's default otherwise, as docs/several-instances.md sets it up", async () => {
    const url = await startBehindNginx();
    expect(await connectionHeaders(url, 4)).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive']);
  });
});
