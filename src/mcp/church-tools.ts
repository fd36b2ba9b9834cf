// The church MCP tools: each a thin call into an endpoint of the church table (src/church/endpoints.ts), answered only with the caller's own API key.
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../build/contract/paging.ts';
import { LIBRARY_TYPES } from '../church/records.ts';
import { MAX_EVENTS } from '../church/responses.ts';
import { KEY_PREFIX } from '../keys/format.ts';
import { queryValue, type ToolDefinition } from './tool.ts';

/** Said by every church tool: where its key comes from, and what its errors mean. */
const KEYED = `Needs an API key: the MCP client must send \`Authorization: Bearer ${KEY_PREFIX}…\` with its requests to /mcp (the developer portal of this server issues keys); each call counts against that key's limit of requests per minute. An unknown slug and a church whose profile is not public answer the same "unknown church" error.`;

const slug = z.string().min(1).max(200).describe("The church's slug, as in the address of its public page, for example `grace-paris`.");
const page = z.number().int().min(0).optional().describe('Zero-based page number (default 0).');
const size = z.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe(`Items per page, 1 to ${MAX_PAGE_SIZE} (default 10).`);

/** The church tools, in the order of the church table's endpoints. */
export const churchTools: readonly ToolDefinition[] = [
  {
    name: 'get_church_profile',
    title: 'Church profile',
    description: `The public profile of one church: name, bio, denomination, city, country, language, website, logo and cover images, and its public page. ${KEYED}`,
    inputSchema: { slug },
    keyed: true,
    call: ({ slug }, { church }) => church('getChurch', { params: { slug: String(slug) } }),
  },
  {
    name: 'get_church_events',
    title: 'Upcoming church events',
    description: `The church's published events that have not ended yet, in its own time zone (start and end as local date-times), sorted by start: name, description, location, cover image, whether free, registration page. At most ${MAX_EVENTS}. ${KEYED}`,
    inputSchema: { slug },
    keyed: true,
    call: ({ slug }, { church }) => church('getChurchEvents', { params: { slug: String(slug) } }),
  },
  {
    name: 'get_church_posts',
    title: 'Church announcements',
    description: `The church's public announcements, newest first, paged (\`items\`, \`page\`, \`size\`, \`totalItems\`, \`totalPages\`): title, body, image, publication time, page. ${KEYED}`,
    inputSchema: { slug, page, size },
    keyed: true,
    call: ({ slug, page, size }, { church }) =>
      church('getChurchPosts', { params: { slug: String(slug) }, query: { page: queryValue(page), size: queryValue(size) } }),
  },
  {
    name: 'get_church_live_status',
    title: 'Church live status',
    description: `Whether the church is broadcasting now, on video or radio, with its station name and listening page (null when it has no station). ${KEYED}`,
    inputSchema: { slug },
    keyed: true,
    call: ({ slug }, { church }) => church('getChurchLive', { params: { slug: String(slug) } }),
  },
  {
    name: 'get_church_library',
    title: 'Church library',
    description: `The church's books, documents and recordings in its own order, paged, optionally of one type: title, author, description, cover, free or its price, page. ${KEYED}`,
    inputSchema: {
      slug,
      type: z
        .enum(LIBRARY_TYPES as unknown as [string, ...string[]])
        .optional()
        .describe(`Only items of this type: ${LIBRARY_TYPES.join(', ')}.`),
      page,
      size,
    },
    keyed: true,
    call: ({ slug, type, page, size }, { church }) =>
      church('getChurchLibrary', {
        params: { slug: String(slug) },
        query: { type: queryValue(type), page: queryValue(page), size: queryValue(size) },
      }),
  },
  {
    name: 'get_church_store',
    title: 'Church store',
    description: `The products on the church's public page, in its order: name, description, image, price (a product with variants shows its lowest price as a "starting at" price, and lists its variants), page. ${KEYED}`,
    inputSchema: { slug },
    keyed: true,
    call: ({ slug }, { church }) => church('getChurchStore', { params: { slug: String(slug) } }),
  },
  {
    name: 'get_church_gallery',
    title: 'Church photo albums',
    description: `Without \`albumId\`: the church's public photo albums (albumId, title, description, date, photo count, cover). With \`albumId\` (one the list gave): the photos of that album (url, thumbnail, caption, size). ${KEYED}`,
    inputSchema: {
      slug,
      albumId: z.string().min(1).max(200).optional().describe('An `albumId` from the album list, for the photos of that album.'),
    },
    keyed: true,
    call: ({ slug, albumId }, { church }) =>
      albumId === undefined
        ? church('getChurchAlbums', { params: { slug: String(slug) } })
        : church('getChurchAlbumPhotos', { params: { slug: String(slug), albumId: String(albumId) } }),
  },
];
