// The kept public churches of the SQLite repository: the same record while nothing changed, a new one after any commit, bounded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateChurchDocument } from '../../../src/church/import/validate.ts';
import type { ChurchRecord } from '../../../src/church/records.ts';
import { createPublicChurchCache } from '../../../src/church/sqlite/public-church-cache.ts';
import { createSqliteChurchRepository } from '../../../src/church/sqlite-repository.ts';
import { type Db, openDatabase } from '../../../src/db/open.ts';
import { churchDocument } from '../church-api.ts';

let dir: string;
let first: Db;
let second: Db;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-cache-'));
  // Two connections to one file: the service's, and another process's (the CLI's import, another instance).
  first = openDatabase(path.join(dir, 'church.sqlite'));
  second = openDatabase(path.join(dir, 'church.sqlite'));
});
afterEach(() => {
  first.close();
  second.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const records = (...churches: Record<string, unknown>[]) => validateChurchDocument({ churches }, { now: new Date('2026-06-15T00:00:00Z') });

describe('the SQLite repository keeps public churches', () => {
  it('returns the same frozen record while nothing was committed', async () => {
    const churches = createSqliteChurchRepository(first);
    await churches.importChurches(records(churchDocument('kept')));
    const once = await churches.publicChurchBySlug('kept');
    expect(once?.name).toBe('Church kept');
    expect(await churches.publicChurchBySlug('kept')).toBe(once);
    expect(Object.isFrozen(once)).toBe(true);
  });

  // data_version is read once per turn of the event loop (the requests parsed from one read of the
  // sockets): another connection's commit shows from the next turn, the next request any client can send.
  it("answers another connection's commit from the next turn of the event loop: a renamed church, a church no longer public", async () => {
    const churches = createSqliteChurchRepository(first);
    const elsewhere = createSqliteChurchRepository(second);
    await elsewhere.importChurches(records(churchDocument('renamed'), churchDocument('hidden')));
    expect((await churches.publicChurchBySlug('renamed'))?.name).toBe('Church renamed');
    expect(await churches.publicChurchBySlug('hidden')).toBeDefined();

    await elsewhere.importChurches(records(churchDocument('renamed', { name: 'New name' }), churchDocument('hidden', { isPublic: false })));
    // Within the turn that read data_version, the kept record stands.
    expect((await churches.publicChurchBySlug('renamed'))?.name).toBe('Church renamed');
    await nextTurn();
    expect((await churches.publicChurchBySlug('renamed'))?.name).toBe('New name');
    expect(await churches.publicChurchBySlug('hidden')).toBeUndefined();
  });

  it("answers this connection's own import at once (which PRAGMA data_version does not count)", async () => {
    const churches = createSqliteChurchRepository(first);
    await churches.importChurches(records(churchDocument('own')));
    expect((await churches.publicChurchBySlug('own'))?.city).toBe('Testville');
    await churches.importChurches(records(churchDocument('own', { city: 'Lyon' })));
    expect((await churches.publicChurchBySlug('own'))?.city).toBe('Lyon');
  });
});

describe('the cache of public churches', () => {
  const church = (slug: string, bio = ''): ChurchRecord => ({
    id: 1,
    slug,
    name: slug,
    bio,
    denomination: 'Protestant',
    logoUrl: null,
    coverImageUrl: null,
    city: 'Paris',
    country: 'FR',
    language: 'fr',
    website: null,
    timeZone: 'Europe/Paris',
    isPublic: true,
  });

  it('loads an unknown slug every time (any client can send any number of them)', () => {
    const cache = createPublicChurchCache(first);
    let loads = 0;
    const load = () => {
      loads += 1;
      return undefined;
    };
    cache.get('nowhere', load);
    cache.get('nowhere', load);
    expect(loads).toBe(2);
  });

  it('keeps at most its number of entries, the least recently used out first', () => {
    const cache = createPublicChurchCache(first, { entries: 2, bytes: 1_000_000 });
    const loaded: string[] = [];
    const load = (slug: string) => {
      loaded.push(slug);
      return church(slug);
    };
    for (const slug of ['a', 'b', 'c', 'b', 'a', 'b']) cache.get(slug, load);
    // 'a' went out when 'c' came in, 'b' was still kept, and 'a' came back in place of the least recently read then, 'c'.
    expect(loaded).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps at most its bytes, and never a record larger than all of them', () => {
    const cache = createPublicChurchCache(first, { entries: 100, bytes: 2_000 });
    const loaded: string[] = [];
    const load = (bio: number) => (slug: string) => {
      loaded.push(slug);
      return church(slug, 'x'.repeat(bio));
    };
    cache.get('small', load(10));
    cache.get('half', load(500));
    cache.get('huge', load(5_000));
    cache.get('huge', load(5_000));
    cache.get('small', load(10));
    cache.get('half', load(500));
    expect(loaded).toEqual(['small', 'half', 'huge', 'huge']);
    cache.get('other-half', load(500));
    cache.get('small', load(10));
    expect(loaded.slice(4)).toEqual(['other-half', 'small']);
  });
});
