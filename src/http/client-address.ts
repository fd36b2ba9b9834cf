// The client's address as Express's req.ip gives it, for the dispatcher, which answers the API before Express (src/http/dispatcher.ts).
import type { IncomingMessage } from 'node:http';

/** Express's compiled `trust proxy` setting (app.get('trust proxy fn')): whether the hop `index` away, at `address`, is a trusted proxy. */
export type TrustProxy = (address: string, index: number) => boolean;

/**
 * The address req.ip would be under Express with the same trust function (proxy-addr's rule): the
 * socket's peer, then the X-Forwarded-For entries from the right, each taken while the one before
 * it is trusted. Without X-Forwarded-For it is the socket's peer, whatever the setting.
 *
 * @example clientAddress(req, app.get('trust proxy fn')) // '203.0.113.7'
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string | undefined {
  const socketAddress = req.socket.remoteAddress;
  const header = req.headers['x-forwarded-for'];
  // Node joins repeated X-Forwarded-For lines into one string.
  if (typeof header !== 'string' || header === '') return socketAddress;
  const addresses = [socketAddress as string, ...forwardedFromRight(header)];
  let last = 0;
  while (last < addresses.length - 1 && trust(addresses[last] as string, last)) last++;
  return addresses[last];
}

/** The entries of an X-Forwarded-For value, nearest hop first, split on commas and trimmed of spaces, empty ones left out (as proxy-addr reads it). */
function forwardedFromRight(header: string): string[] {
  const list: string[] = [];
  let end = header.length;
  let start = header.length;
  for (let i = header.length - 1; i >= 0; i--) {
    const code = header.charCodeAt(i);
    if (code === 0x20) {
      if (start === end) start = end = i;
    } else if (code === 0x2c) {
      if (start !== end) list.push(header.substring(start, end));
      start = end = i;
    } else {
      start = i;
    }
  }
  if (start !== end) list.push(header.substring(start, end));
  return list;
}
