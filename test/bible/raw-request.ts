// Test helper: one HTTP request with node:http, so the body arrives exactly as sent (no transparent decompression), checked against the OpenAPI document.
import http from 'node:http';
import { checkResponse, decodedBody } from '../helpers/api-client.ts';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON (identity encoding only). */
  json(): unknown;
}

/**
 * Sends `method` to `url` with exactly `headers` (no Accept-Encoding unless given). The response,
 * decoded, is checked against the document the server serves (see apiFetch): a mismatch rejects.
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
        const status = response.statusCode ?? 0;
        const bodyless = method === 'HEAD' || status === 204 || status === 304;
        const raw: RawResponse = { status, headers: response.headers, body, json: () => JSON.parse(body.toString('utf8')) as unknown };
        checkResponse({
          method,
          url,
          status,
          contentType: response.headers['content-type'] ?? null,
          body: bodyless ? '' : decodedBody(body, response.headers['content-encoding']),
        }).then(() => resolve(raw), reject);
      });
    });
    request.on('error', reject);
    request.end();
  });
}
