// Paging of every paged list (posts, library, search): the `page` and `size` parameters, and the envelope out; limits and shape in build/contract/paging.ts.
import { Type } from '@sinclair/typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, type PageEnvelope } from '../../build/contract/paging.ts';
import { problems } from '../../build/contract/problems.ts';
import type { QueryParameter } from './endpoint.ts';
import { ApiError } from './problem.ts';

export type { PageEnvelope };

/** A zero-based page request, already validated. */
export interface PageRequest {
  page: number;
  size: number;
}

/** How numbers in paths and queries are written, as the document says it. */
export const CANONICAL_NUMBERS = 'plain decimal digits without sign or leading zeros, so that each resource has one URL for caches';

/**
 * Numbers written canonically: digits only, no sign, no leading zero. `01` is refused rather
 * than read as 1, so that each page has exactly one URL for caches.
 */
const CANONICAL_INTEGER = /^(?:0|[1-9][0-9]{0,9})$/;

/** `page` of every paged list: default 0, 0..1,000,000; anything else is a 400 naming it. */
export const pageParameter: QueryParameter<'page', number> = {
  name: 'page',
  schema: Type.Integer({ minimum: 0, maximum: MAX_PAGE }),
  default: 0,
  description: `Zero-based page number, 0 to ${MAX_PAGE.toLocaleString('en')}, in ${CANONICAL_NUMBERS}. A page past the end answers 200 with empty \`items\`.`,
  read: (raw) => queryInteger('page', raw, 0, 0, MAX_PAGE),
};

/** `size` of every paged list: default 10, 1..50; anything else is a 400 naming it. */
export const sizeParameter: QueryParameter<'size', number> = {
  name: 'size',
  schema: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
  default: DEFAULT_PAGE_SIZE,
  description: `Items per page, 1 to ${MAX_PAGE_SIZE}, in ${CANONICAL_NUMBERS}.`,
  read: (raw) => queryInteger('size', raw, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
};

/** `page` and `size` of a query, as an endpoint reading both reads them. */
export function parsePageRequest(query: Record<string, unknown>): PageRequest {
  return { page: pageParameter.read(query.page, {}), size: sizeParameter.read(query.size, {}) };
}

/** The envelope around one page of items. */
export function pageEnvelope<T>(items: T[], request: PageRequest, totalItems: number): PageEnvelope<T> {
  return { items, page: request.page, size: request.size, totalItems, totalPages: Math.ceil(totalItems / request.size) };
}

/** A query parameter given at most once, as a string; repeated or nested forms are a 400. */
export function singleQueryValue(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(problems.invalidParameter(name, `${name} must be given once, as a single value.`));
  return value;
}

function queryInteger(name: string, given: unknown, fallback: number, min: number, max: number): number {
  const raw = singleQueryValue(name, given);
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
