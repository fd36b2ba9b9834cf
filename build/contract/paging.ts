// The paging contract of every paged list (church posts and library, Bible search): its limits and its envelope.
import { type Static, type TSchema, Type } from '@sinclair/typebox';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 50;
/** Beyond this a page number is refused rather than turned into a huge OFFSET. */
export const MAX_PAGE = 1_000_000;

/**
 * The envelope around one page of `item`: `page` zero-based, past the end `items` is empty.
 * Each paged list gets its own named schema (`$id`), so generated clients get a named type.
 *
 * @example PageSchema(PostSchema, { $id: 'PostPage' })
 */
export function PageSchema<T extends TSchema>(item: T, options: { $id: string; description?: string }) {
  return Type.Object(
    {
      items: Type.Array(item),
      page: Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Zero-based page number, as requested.' }),
      size: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Items per page, as requested.' }),
      totalItems: Type.Integer({ minimum: 0, description: 'Items over all pages.' }),
      totalPages: Type.Integer({ minimum: 0, description: 'Pages of this size; a page number from it on answers an empty page.' }),
    },
    { additionalProperties: false, ...options },
  );
}

/** One page of `T`: the Static of PageSchema with its items typed. */
export type PageEnvelope<T> = Omit<Static<ReturnType<typeof PageSchema>>, 'items'> & { items: T[] };
