// Test helper: one HTTP request with node:http, so the body arrives exactly as sent (no transparent decompression).
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON (identity encoding only). */
  json(): unknown;
}

/**
 * Sends `method` to `url` with exactly `headers` (no Accept-Encoding unless given).
 *
 * @example const res = await rawRequest(`${url}/api/v1/bible/versions`, { 'accept-encoding': 'br' })
 */
export function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { connection: 'close', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          json: () => JSON.parse(body.toString('utf8')) as unknown,
        });
      });
    });
    request.on('error', reject);
    request.end();
  });
}
