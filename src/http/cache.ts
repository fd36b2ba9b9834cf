// JSON and text bodies encoded once with their strong ETag, and the If-None-Match comparison every validated answer makes.
import { createHash } from 'node:crypto';

/** A JSON body serialised once, with its entity tag: what the response writer sends, again and again if kept. */
export interface PreparedJson {
  kind: 'json';
  /**
   * The UTF-8 bytes, encoded once. A string was encoded on every write, after Node joined it to the
   * header string: with one character past Latin-1 (a curly quote, the œ of a French name) that join
   * is a two-byte copy of headers and body per answer, then its UTF-8 encoding (issue 28's profile).
   */
  json: Buffer;
  /** Strong ETag of `json`. */
  etag: string;
  /** Content-Length: the length of `json`. */
  length: string;
}

/**
 * The body serialised and tagged with a strong ETag (quoted base64url SHA-256 of its UTF-8 bytes):
 * to be kept when the same body is sent again.
 *
 * @example prepareJson({ status: 'ok' }).etag
 */
export function prepareJson(body: unknown): PreparedJson {
  return preparedJsonText(JSON.stringify(body));
}

/**
 * A body already serialised (pieces made elsewhere, spliced together), tagged as prepareJson tags it.
 *
 * @example preparedJsonText('{"items":[]}').length // '12'
 */
export function preparedJsonText(json: string): PreparedJson {
  const { bytes, etag, length } = preparedBytes(json);
  return { kind: 'json', json: bytes, etag, length };
}

/** A text body of another media type (an iCalendar, a JSON-LD document), made once with its strong ETag. */
export interface PreparedText {
  kind: 'text';
  /** The UTF-8 bytes, encoded once (as PreparedJson's `json`: the calendar and JSON-LD of a French church hold an œ too). */
  text: Buffer;
  /** Strong ETag of `text`. */
  etag: string;
  /** Content-Length: the length of `text`. */
  length: string;
  /** Content-Type of the answer, with its charset. */
  contentType: string;
}

/**
 * A text body tagged with a strong ETag of its bytes: another media type is another representation, with its own tag.
 *
 * @example prepareText('BEGIN:VCALENDAR\r\n…', 'text/calendar; charset=utf-8')
 */
export function prepareText(text: string, contentType: string): PreparedText {
  const { bytes, etag, length } = preparedBytes(text);
  return { kind: 'text', text: bytes, etag, length, contentType };
}

/**
 * The UTF-8 bytes of `text`, their strong ETag and length: what every prepared body is sent as. The
 * bytes get a buffer of their own, not Buffer.from's: below 4 kB it cuts them from an 8 kB slab Node
 * shares between buffers, and a kept answer would hold the whole slab.
 */
function preparedBytes(text: string): { bytes: Buffer; etag: string; length: string } {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return { bytes, etag: strongEtag(bytes), length: String(bytes.length) };
}

/** The strong entity tag of a byte sequence: `"<base64url sha256>"`. */
export function strongEtag(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/**
 * True when an If-None-Match header value matches `tag`. Per RFC 9110 §13.1.2 the comparison is
 * weak: `W/"x"` matches `"x"`; `*` matches any current representation, one without a tag too.
 */
export function ifNoneMatchMatches(header: string | undefined, tag: string | undefined): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  if (tag === undefined) return false;
  const opaque = tag.replace(/^W\//, '');
  return header
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === opaque);
}
