// Paging of every paged list (posts, library, search): `page` and `size` in, the envelope out; limits and shape in build/contract/paging.ts.
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, type PageEnvelope } from '../../build/contract/paging.ts';
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from './problem.ts';

export type { PageEnvelope };

/** A zero-based page request, already validated. */
export interface PageRequest {
  page: number;
  size: number;
}

/**
 * Numbers written canonically: digits only, no sign, no leading zero. `01` is refused rather
 * than read as 1, so that each page has exactly one URL for caches.
 */
const CANONICAL_INTEGER = /^(?:0|[1-9][0-9]{0,9})$/;

/** `page` (default 0, 0..1,000,000) and `size` (default 10, 1..50); anything else is a 400 naming the parameter. */
export function parsePageRequest(query: Record<string, unknown>): PageRequest {
  return {
    page: queryInteger(query, 'page', 0, 0, MAX_PAGE),
    size: queryInteger(query, 'size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

/** The envelope around one page of items. */
export function pageEnvelope<T>(items: T[], request: PageRequest, totalItems: number): PageEnvelope<T> {
  return { items, page: request.page, size: request.size, totalItems, totalPages: Math.ceil(totalItems / request.size) };
}

/** A query parameter given at most once, as a string; repeated or nested forms are a 400. */
export function singleQueryValue(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(problems.invalidParameter(name, `${name} must be given once, as a single value.`));
  return value;
}

function queryInteger(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = singleQueryValue(query, name);
  if (raw === undefined) return fallback;
  const value = CANONICAL_INTEGER.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ApiError(
      problems.invalidParameter(
        name,
        `${name} must be a whole number from ${min} to ${max}, written without sign or leading zeros; got "${raw.slice(0, 40)}".`,
      ),
    );
  }
  return value;
}
