// The dispatcher's client address is the one Express's req.ip gives, under every trust proxy setting the configuration accepts.
import type { IncomingMessage } from 'node:http';
import express from 'express';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientAddress, type TrustProxy } from '../../src/http/client-address.ts';

/** The settings TRUST_PROXY can give (src/config.ts): off, a hop count, addresses and ranges. */
const SETTINGS = [false, 1, 2, 3, ['loopback'], ['10.0.0.0/8', '192.0.2.1'], ['loopback', 'uniquelocal']] as const;

const address = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('127.0.0.1', '10.1.2.3', '192.0.2.1', '::1', 'fd00::1', 'unknown', ''));
const separator = fc.constantFrom(',', ', ', ' ,', ',,', '  ,  ');
/** X-Forwarded-For values as clients and proxies send them, spacing and empty entries included. */
const forwardedFor = fc
  .array(fc.tuple(address, separator), { maxLength: 5 })
  .map((entries) => entries.map(([entry, sep], index) => (index === 0 ? entry : `${sep}${entry}`)).join(''));

/** What Express's req.ip says for a request from `peer` with `header`, beside clientAddress with the app's own trust function. */
function both(setting: (typeof SETTINGS)[number], peer: string | undefined, header: string | undefined) {
  const app = express();
  app.set('trust proxy', setting);
  const raw = { headers: header === undefined ? {} : { 'x-forwarded-for': header }, socket: { remoteAddress: peer } };
  const viaExpress = Object.setPrototypeOf({ ...raw }, app.request) as express.Request;
  const trust: TrustProxy = app.get('trust proxy fn');
  return { express: viaExpress.ip, ours: clientAddress(raw as unknown as IncomingMessage, trust) };
}

describe('clientAddress', () => {
  it('equals req.ip for any X-Forwarded-For under every setting', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SETTINGS),
        fc.constantFrom('127.0.0.1', '10.9.8.7', '::1', '203.0.113.5'),
        forwardedFor,
        (setting, peer, header) => {
          const { express: expected, ours } = both(setting, peer, header);
          expect(ours).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is the peer without the header, and the first untrusted hop with it', () => {
    expect(both(false, '127.0.0.1', undefined).ours).toBe('127.0.0.1');
    expect(both(false, '127.0.0.1', '198.51.100.1').ours).toBe('127.0.0.1');
    expect(both(['loopback'], '127.0.0.1', '198.51.100.1, 127.0.0.1').ours).toBe('198.51.100.1');
    expect(both(1, '10.0.0.1', '198.51.100.1, 203.0.113.9').ours).toBe('203.0.113.9');
    expect(both(1, undefined, undefined).ours).toBeUndefined();
  });
});
