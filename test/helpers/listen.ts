// Listens with a request listener (the app, or an Express app) on a free loopback port; close() also ends keep-alive connections.

import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  /** The http.Server listening: for a test that must see a request arrive ('request' event). */
  server: Server;
  close(): Promise<void>;
}

/**
 * `port` 0 (the default) takes a free one; a test that must know its address first passes one.
 * `server` is the http.Server around the app when the test runs the service's own (createHttpServer).
 */
export async function listenOnLoopback(app: RequestListener, port = 0, server: Server = createServer(app)): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
