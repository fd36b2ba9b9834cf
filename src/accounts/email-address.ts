// E-mail addresses as the account rules take them: one bare addr-spec, parsed strictly, and the key reserved addresses are compared by.
import { domainToASCII, domainToUnicode } from 'node:url';
import { confusablesVersion, skeleton } from './confusables.ts';
import { AccountRefusal } from './refusal.ts';

/** How the local part is read when an address is compared with the reserved list (RESERVED_EMAIL_IGNORE). */
export interface ReservedMatching {
  /** `pastor+news@…` is compared as `pastor@…` (sub-addressing, which most providers deliver to the same mailbox). */
  plusTags: boolean;
  /** `p.astor@…` is compared as `pastor@…` (Gmail ignores dots; most providers do not). */
  dots: boolean;
}

/** The default: a +tag never gets past the reserved list, dots do (they name another mailbox at most providers). */
export const DEFAULT_RESERVED_MATCHING: Readonly<ReservedMatching> = Object.freeze({ plusTags: true, dots: false });

/** Longest address (RFC 5321's path limit less its angle brackets), local part and domain. */
const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const MAX_DOMAIN_LENGTH = 253;

/**
 * A dot-atom of RFC 5322's atext, ASCII only, without `%` and `!` (old relay syntax some servers
 * still route by): no quotes, comments, spaces, angle brackets, commas or semicolons can get in,
 * so the address stored is the only address a mailer can read in it.
 */
const LOCAL_PART = /^[A-Za-z0-9#$&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9#$&'*+/=?^_`{|}~-]+)*$/;
/** What a domain may hold before IDN conversion: letters and digits of any script, marks, hyphens and dots; no %, no brackets. */
const RAW_DOMAIN = /^[\p{L}\p{M}\p{N}.-]+$/u;
/** One label of the converted (ASCII) domain: letters, digits and inner hyphens. */
const ASCII_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The one form an address is stored, looked up and mailed in: `local@domain`, the local part in
 * lower case, the domain in lower-case ASCII (an internationalised domain as punycode, `xn--…`).
 * Surrounding white space is trimmed; anything but a single bare address is refused with an
 * 'invalid-email' AccountRefusal: a display name or angle brackets (`x<a@b>`), a list (`a,b@c`),
 * quotes, comments, an IP literal, a trailing dot, a non-ASCII local part.
 *
 * @example parseEmailAddress(' Ana@Bücher.Example ') // 'ana@xn--bcher-kva.example'
 */
export function parseEmailAddress(raw: string): string {
  const address = addressOrUndefined(raw);
  if (address === undefined) throw new AccountRefusal('invalid-email', `Not a valid e-mail address: "${raw.trim().slice(0, 300)}".`);
  return address;
}

/** parseEmailAddress, or undefined where it would refuse (a lookup of a malformed address finds nobody). */
export function addressOrUndefined(raw: string): string | undefined {
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_ADDRESS_LENGTH * 2) return undefined;
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@')) return undefined;
  const local = text.slice(0, at);
  const rawDomain = text.slice(at + 1);
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return undefined;
  if (!RAW_DOMAIN.test(rawDomain) || rawDomain.endsWith('.')) return undefined;
  const domain = domainToASCII(rawDomain);
  if (!isHostName(domain)) return undefined;
  const address = `${local.toLowerCase()}@${domain}`;
  return address.length > MAX_ADDRESS_LENGTH ? undefined : address;
}

/**
 * The key an address is compared with the reserved list by: the local part read as `matching`
 * says (+tag, dots), the domain in Unicode, then the TR39 skeleton of the whole, so a homoglyph
 * (Cyrillic "а", "rn" for "m", "1" for "l") gives the key of the address it imitates.
 * `address` is a parsed one (parseEmailAddress).
 *
 * @example reservedMatchKey('pastor+x@chаrch.example', DEFAULT_RESERVED_MATCHING) === reservedMatchKey('pastor@church.example', DEFAULT_RESERVED_MATCHING)
 */
export function reservedMatchKey(address: string, matching: ReservedMatching): string {
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at);
  if (matching.plusTags) local = local.split('+', 1)[0] || local;
  if (matching.dots) local = local.replaceAll('.', '') || local;
  return skeleton(`${local}@${domainToUnicode(address.slice(at + 1)).toLowerCase()}`);
}

/**
 * What the stored keys were made with: the confusables data's version and the local-part rules.
 * Keys made with other rules (the setting changed, new Unicode data) are made again at start.
 */
export function reservedMatchRules(matching: ReservedMatching): string {
  return [`tr39-${confusablesVersion()}`, ...(matching.plusTags ? ['plus-tags'] : []), ...(matching.dots ? ['dots'] : [])].join(' ');
}

/** A host name of two or more LDH labels whose last one holds a letter: no IP address, no single label. */
function isHostName(domain: string): boolean {
  if (domain.length === 0 || domain.length > MAX_DOMAIN_LENGTH) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => ASCII_LABEL.test(label)) && /[a-z]/.test(labels.at(-1)!);
}
