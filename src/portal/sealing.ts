// Sealing what the portal must keep for a while but never in clear (a queued message's link, a new key between a post and its page): AES-256-GCM.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Fingerprinter } from '../keys/fingerprint.ts';

export interface Sealer {
  /** The text encrypted and authenticated: base64url of IV, tag and ciphertext. */
  seal(text: string): string;
  /** The text back; throws when the sealed value was made with another key or changed. */
  open(sealed: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A sealer whose key is derived from the key fingerprint secret and `purpose` (an HMAC of a fixed
 * label), so there is no second secret to keep and a copy of the database alone opens nothing.
 *
 * @example const sealer = createSealer(fingerprinter, 'outgoing mail v1'); sealer.open(sealer.seal('x')) // 'x'
 */
export function createSealer(fingerprinter: Fingerprinter, purpose: string): Sealer {
  const key = Buffer.from(fingerprinter.fingerprint(`portal sealing key: ${purpose}`), 'hex');
  return {
    seal(text) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
