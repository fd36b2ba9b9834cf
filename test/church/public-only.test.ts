// Walks every response of the demo data and the database schema: nothing about members, finances or donations.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { DEMO_DATA_FILE } from '../../src/church/demo-data.ts';
import type { Album } from '../../src/church/responses.ts';
import type { PageEnvelope } from '../../src/http/paging.ts';
import { CHURCHES, type ChurchApi, startChurchApi } from './church-api.ts';

const FORBIDDEN = /member|financ|donat|donor|tithe|offering|salar|giving|payroll|budget|income|expense/i;

let api: ChurchApi;
beforeAll(async () => {
  api = await startChurchApi();
});
afterAll(async () => {
  await api.close();
});

/** Every key of every object inside `value`, with its JSON path. */
function fieldNames(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => fieldNames(item, `${at}[${index}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([name, inner]) => [`${at}.${name}`, ...fieldNames(inner, `${at}.${name}`)]);
  }
  return [];
}

describe('only public data', () => {
  it('no field of any response of the demo data mentions members, finances or donations', async () => {
    const document = JSON.parse(fs.readFileSync(DEMO_DATA_FILE, 'utf8')) as { churches: { slug: string; isPublic: boolean }[] };
    const bodies: { path: string; body: unknown }[] = [];
    const get = async (path: string) => {
      const response = await api.request(`${CHURCHES}/${path}`);
      const body: unknown = await response.json();
      bodies.push({ path, body });
      return { status: response.status, body };
    };

    for (const church of document.churches) {
      const profile = await get(church.slug);
      expect(profile.status, church.slug).toBe(church.isPublic ? 200 : 404);
      for (const sub of ['events', 'live', 'store']) await get(`${church.slug}/${sub}`);
      for (const list of ['posts', 'library']) {
        for (const size of [50, 7]) {
          let page = 0;
          for (;;) {
            const { status, body } = await get(`${church.slug}/${list}?size=${size}&page=${page}`);
            if (status !== 200 || (body as PageEnvelope<unknown>).items.length === 0) break;
            page++;
          }
        }
      }
      const gallery = await get(`${church.slug}/gallery`);
      if (gallery.status === 200) {
        for (const album of gallery.body as Album[]) await get(`${church.slug}/gallery/${album.albumId}/photos`);
      }
    }

    expect(bodies.length).toBeGreaterThan(40);
    const names = bodies.flatMap(({ path, body }) => fieldNames(body, path));
    expect(names.length).toBeGreaterThan(500);
    expect(names.filter((name) => FORBIDDEN.test(name.split('.').pop()!))).toEqual([]);
    // And nothing from the hidden church leaks anywhere.
    expect(JSON.stringify(bodies.filter((entry) => !entry.path.startsWith('stille-kapel')))).not.toMatch(/stille|Kapel|kerst/i);
  });

  it('the database has no table or column for members, finances or donations', () => {
    const db = new Database(path.join(api.server.dir, 'church.sqlite'), { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      expect(tables).toEqual(
        expect.arrayContaining([
          'churches',
          'events',
          'posts',
          'library_items',
          'products',
          'product_variants',
          'albums',
          'photos',
          'live_stations',
        ]),
      );
      const names = tables.flatMap((table) => [
        table,
        ...(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).map((column) => `${table}.${column}`),
      ]);
      expect(names.filter((name) => FORBIDDEN.test(name))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
