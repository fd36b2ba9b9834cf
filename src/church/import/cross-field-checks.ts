// The checks of an import document that one field's schema cannot make: unique keys, end after start, price or variants, minor digits.
import { amountToMinor } from '../money.ts';
import type { ChurchDocument, ChurchImportDocument } from './document.ts';
import { fieldLabel } from './field-labels.ts';
import { localToday, resolveLocalDateTime } from './relative-time.ts';

/** The lists of a church whose items must have unique keys, with the key. */
const UNIQUE_KEYS = [
  ['events', 'slug'],
  ['posts', 'slug'],
  ['library', 'slug'],
  ['products', 'slug'],
  ['albums', 'albumId'],
] as const;

/**
 * Problems of the checks that involve several fields. `failed` holds the JSON pointers of the
 * fields that already failed their schema: a check runs only on fields that passed it, so one
 * fault is reported once, and the document can be read through its types here.
 */
export function crossFieldProblems(document: ChurchImportDocument, failed: readonly string[], now: Date): string[] {
  const problems: string[] = [];
  const fields = new FieldState(failed);
  const problem = (pointer: string, message: string) => problems.push(`${fieldLabel(document, pointer)}: ${message}`);
  const churchSlugs = new Set<string>();
  document.churches.forEach((church, index) => {
    const at = `/churches/${index}`;
    if (!fields.shaped(at)) return;
    if (fields.intact(`${at}/slug`)) {
      if (churchSlugs.has(church.slug)) problem(`${at}/slug`, `"${church.slug}" appears twice in the document`);
      churchSlugs.add(church.slug);
    }
    for (const [list, key] of UNIQUE_KEYS) uniqueKeys(church[list], `${at}/${list}`, key);
    churchTimes(church, at);
    churchPrices(church, at);
  });
  return problems;

  /** Each item's key (slug, name, albumId) appears once in its list. */
  function uniqueKeys(items: readonly object[] | undefined, at: string, key: string): void {
    if (items === undefined || !fields.shaped(at)) return;
    const seen = new Set<unknown>();
    items.forEach((item, index) => {
      if (!fields.intact(`${at}/${index}/${key}`)) return;
      const id = (item as Record<string, unknown>)[key];
      if (seen.has(id)) problem(`${at}/${index}/${key}`, `"${String(id)}" appears twice in ${fieldLabel(document, at)}`);
      seen.add(id);
    });
  }

  /** An event's end is not before its start, both resolved in the church's zone. */
  function churchTimes(church: ChurchDocument, at: string): void {
    if (church.events === undefined || !fields.shaped(`${at}/events`)) return;
    const today = fields.intact(`${at}/timeZone`) ? localToday(now, church.timeZone) : undefined;
    church.events.forEach((event, index) => {
      const eventAt = `${at}/events/${index}`;
      if (event.end === undefined || !fields.intact(`${eventAt}/start`) || !fields.intact(`${eventAt}/end`)) return;
      const start = resolveLocalDateTime(event.start, today);
      const end = resolveLocalDateTime(event.end, today);
      if (start !== undefined && end !== undefined && end < start) problem(`${eventAt}/end`, `must not be before start (${start})`);
    });
  }

  /** A product has a price or variants, not both; amounts have at most their currency's minor digits. */
  function churchPrices(church: ChurchDocument, at: string): void {
    church.products?.forEach((product, index) => {
      const productAt = `${at}/products/${index}`;
      if (!fields.shaped(productAt)) return;
      uniqueKeys(product.variants, `${productAt}/variants`, 'name');
      const variants = fields.shaped(`${productAt}/variants`) ? (product.variants ?? []) : [];
      const hasPrice = product.price !== undefined;
      if (!hasPrice && variants.length === 0) problem(`${productAt}/price`, 'is required for a product without variants');
      if (hasPrice && variants.length > 0) {
        problem(`${productAt}/price`, 'must be left out when the product has variants (each variant has its price)');
      }
      if (!fields.intact(`${productAt}/currency`)) return;
      if (hasPrice) minorDigits(product.price!, product.currency, `${productAt}/price`);
      variants.forEach((variant, variantIndex) => {
        minorDigits(variant.price, product.currency, `${productAt}/variants/${variantIndex}/price`);
      });
    });
    church.library?.forEach((item, index) => {
      const priceAt = `${at}/library/${index}/price`;
      if (item.price !== undefined && fields.intact(priceAt)) minorDigits(item.price.amount, item.price.currency, `${priceAt}/amount`);
    });
  }

  function minorDigits(amount: string, currency: string, at: string): void {
    if (!fields.intact(at)) return;
    if (amountToMinor(amount, currency) === undefined) {
      problem(at, `must be a non-negative decimal string with at most the minor digits of ${currency} (e.g. "12.50")`);
    }
  }
}

/** Which parts of the document passed the schema, by JSON pointer. */
class FieldState {
  constructor(private readonly failed: readonly string[]) {}

  /** The value at `pointer` and everything inside it passed. */
  intact(pointer: string): boolean {
    return this.shaped(pointer) && !this.failed.some((failure) => failure.startsWith(`${pointer}/`));
  }

  /** The value at `pointer` has its type (an object is an object); parts inside it may have failed. */
  shaped(pointer: string): boolean {
    return !this.failed.some((failure) => failure === pointer || pointer.startsWith(`${failure}/`));
  }
}
