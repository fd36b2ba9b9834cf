// Stored representations of a file (identity, brotli, gzip), each with its own strong ETag, and the choice among them by Accept-Encoding.
import type { FileHandle } from 'node:fs/promises';
import Negotiator from 'negotiator';

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** One stored representation held in memory: its bytes, its own strong ETag, and the headers of its answers, made once. */
export interface Representation {
  coding: ContentCoding;
  bytes: Buffer;
  etag: string;
  /** The headers of a 200 after Cache-Control (vary, validator, type, coding, length), as name, value, name, value... for writeHead. */
  okHeaders: readonly string[];
  /** The headers of a 304 after Cache-Control: vary and validator only. */
  notModifiedHeaders: readonly string[];
}

/** A file held in memory: the identity bytes and whichever precompressed variants lie beside it. */
export interface StoredFile {
  kind: 'stored';
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
}

/** A representation streamed from disk: the file opened (so a rebuild cannot swap it mid-answer), its size and ETag. */
export interface DiskRepresentation {
  coding: ContentCoding;
  handle: FileHandle;
  size: number;
  etag: string;
}

/** A file too large to hold, opened with its precompressed variants; the writer closes every handle. */
export interface DiskFile {
  kind: 'streamed';
  identity: DiskRepresentation;
  br?: DiskRepresentation;
  gzip?: DiskRepresentation;
}

/**
 * A representation with the headers of its 200 and 304 answers (the response writer sends them after
 * Cache-Control, as they are).
 *
 * @example representation('br', bytes, '"abc-br"', 'application/json; charset=utf-8').okHeaders
 */
export function representation(coding: ContentCoding, bytes: Buffer, etag: string, contentType: string): Representation {
  const notModifiedHeaders = ['Vary', 'Accept-Encoding', 'ETag', etag];
  const okHeaders = [
    ...notModifiedHeaders,
    'Content-Type',
    contentType,
    ...(coding === 'identity' ? [] : ['Content-Encoding', coding]),
    'Content-Length',
    String(bytes.length),
  ];
  return { coding, bytes, etag, okHeaders, notModifiedHeaders };
}

/** Closes the handles of a file opened from disk, except `keep` (the one being streamed, which closes itself). */
export async function closeDiskFile(file: DiskFile, keep?: DiskRepresentation): Promise<void> {
  const handles = [file.identity, file.br, file.gzip].filter((candidate) => candidate && candidate !== keep);
  await Promise.all(handles.map((candidate) => candidate!.handle.close()));
}

/** The coding name `x-gzip` in an Accept-Encoding list. */
const X_GZIP = /(^|,)\s*x-gzip\b/gi;

/**
 * The representation to send for an Accept-Encoding header, chosen by negotiator (the library
 * behind Express's req.acceptsEncodings): the stored coding with the highest q-value, ties broken
 * br > gzip > identity, `x-gzip` read as gzip; identity when nothing else is acceptable, even after
 * `identity;q=0` (we never answer 406: identity is better than an error for a read-only JSON API).
 * req.acceptsEncodings itself breaks ties by the client's order, which would send gzip to browsers
 * that list `gzip, deflate, br`; negotiator's `preferred` option keeps the server's order.
 *
 * @example negotiate(file, 'gzip, deflate, br').coding // 'br' when a .br file is stored
 */
export function negotiate<R extends { coding: ContentCoding }>(
  file: { identity: R; br?: R; gzip?: R },
  acceptEncoding: string | undefined,
): R {
  const chosen = acceptEncoding === undefined ? 'identity' : chosenCoding(file.br !== undefined, file.gzip !== undefined, acceptEncoding);
  if (chosen === 'br' && file.br) return file.br;
  if (chosen === 'gzip' && file.gzip) return file.gzip;
  return file.identity;
}

/** Choices made, by stored codings and header: clients send a handful of different Accept-Encoding values. */
const chosenCodings = new Map<string, string | undefined>();

/** Different headers remembered at most; past it the map starts again (the header is the client's to vary). */
const REMEMBERED_CHOICES = 256;

/** negotiator's choice among the stored codings for `acceptEncoding`, remembered. */
function chosenCoding(hasBr: boolean, hasGzip: boolean, acceptEncoding: string): string | undefined {
  const key = `${hasBr ? 'b' : '-'}${hasGzip ? 'g' : '-'}${acceptEncoding}`;
  if (chosenCodings.has(key)) return chosenCodings.get(key);
  const available = [...(hasBr ? ['br'] : []), ...(hasGzip ? ['gzip'] : []), 'identity'];
  // RFC 9110 §8.4.1.3: x-gzip is gzip, also when it refuses (x-gzip;q=0).
  const header = acceptEncoding.replace(X_GZIP, '$1gzip');
  const chosen = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(available, { preferred: available });
  if (chosenCodings.size >= REMEMBERED_CHOICES) chosenCodings.clear();
  chosenCodings.set(key, chosen);
  return chosen;
}
