// Test helper: one HTTP request over node:http as sent, its answer's status, headers and raw bytes (no transparent decompression).
import http from 'node:http';

export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface ExchangeOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The client's local address (another loopback address, for a second client address). */
  localAddress?: string;
}

/**
 * Sends one request on a connection of its own (`Connection: close`) and resolves with the raw answer.
 *
 * @example const { status, headers, body } = await exchange(`${server.url}/api/v1/bible/John/3?lang=en`, { headers: { 'accept-encoding': 'br' } });
 */
export function exchange(url: string, { method = 'GET', headers = {}, localAddress }: ExchangeOptions = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { connection: 'close', ...headers }, localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}
