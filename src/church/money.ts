// Money between its stored form (integer minor units + ISO 4217 code) and its public form (decimal string).
import type { MoneyRecord } from './records.ts';
import type { Price } from './responses.ts';

/**
 * The public form of a sum: a decimal string with exactly the currency's minor digits.
 *
 * @example price({ amountMinor: 1250, currency: 'EUR' }) // { amount: '12.50', currency: 'EUR' }
 */
export function price(money: MoneyRecord): Price {
  const digits = minorDigits(money.currency);
  const text = String(money.amountMinor).padStart(digits + 1, '0');
  const amount = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return { amount, currency: money.currency };
}

/**
 * Parses a non-negative decimal amount ("12.5", "12.50", "12") into minor units of `currency`;
 * undefined when it is malformed or has more decimals than the currency allows.
 *
 * @example amountToMinor('12.5', 'EUR') // 1250
 */
export function amountToMinor(amount: string, currency: string): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(amount);
  if (!match) return undefined;
  const digits = minorDigits(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return undefined;
  return Number(match[1] + fraction.padEnd(digits, '0'));
}

/** True for a three-letter code this runtime knows as a currency. */
export function isKnownCurrency(currency: string): boolean {
  if (!/^[A-Z]{3}$/.test(currency)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency });
    return Intl.supportedValuesOf('currency').includes(currency);
  } catch {
    return false;
  }
}

/** Digits after the decimal point for an ISO 4217 currency (EUR 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}
