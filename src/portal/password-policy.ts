// What a new password must be: long enough, not absurdly long, and not on the list of common passwords.
import { readResourceText, resourcePath } from '../resources/resources.ts';

export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase; bounds the hashing work one request can cause. */
export const MAX_PASSWORD_LENGTH = 200;

const COMMON_PASSWORDS_FILE = resourcePath('data/common-passwords.txt');
let commonPasswords: Set<string> | undefined;

/**
 * Why the password is refused, in a sentence for the form, or undefined when it is acceptable.
 *
 * @example passwordRefusal('password1234') // 'This password is one of the most common…'
 */
export function passwordRefusal(password: string, context: { email?: string } = {}): string | undefined {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  if (loadCommonPasswords().has(lower)) return 'This password is one of the most common ones; choose another.';
  if (context.email && lower === context.email.trim().toLowerCase()) return 'The password must not be your e-mail address.';
  if (new Set(password).size < 4) return 'This password repeats too few characters; choose another.';
  return undefined;
}

/** data/common-passwords.txt: one password a line, compared in lower case. */
function loadCommonPasswords(): Set<string> {
  commonPasswords ??= new Set(
    readResourceText(COMMON_PASSWORDS_FILE)
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return commonPasswords;
}
