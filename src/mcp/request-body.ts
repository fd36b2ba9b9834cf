// The text of a Node request's body, read up to a bound: the MCP transport's reader, with no web streams in between.
import type { IncomingMessage } from 'node:http';

/** A body as text, or `tooLarge` once more than the bound was declared or has arrived (the rest is not kept). */
export type BoundedBody = { tooLarge: false; text: string } | { tooLarge: true };

/**
 * Reads `req`'s body as UTF-8 text, as the SDK's `readRequestBody` reads a web `Request`: a declared
 * `Content-Length` over `maxBytes` is refused without reading, otherwise the read stops as soon as
 * more than `maxBytes` have arrived; a leading byte-order mark is dropped (as `TextDecoder` does) and
 * bytes that are not UTF-8 become U+FFFD. Rejects when the request fails or ends before its body does
 * (the client went away).
 *
 * @example const body = await readBoundedBody(req, 64 * 1024); if (!body.tooLarge) JSON.parse(body.text);
 */
export function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<BoundedBody> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve({ tooLarge: true });
  if (req.destroyed) return Promise.reject(new Error('the request ended before its body'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        detach();
        // What is still on its way is read and dropped by Node once the answer is written.
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      detach();
      const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received)).toString('utf8');
      resolve({ tooLarge: false, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
    };
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    const onClose = () => {
      detach();
      reject(new Error('the request ended before its body'));
    };
    const detach = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
