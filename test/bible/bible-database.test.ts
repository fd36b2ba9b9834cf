// The Bible's query database as the service opens it: read-only, with SQLite's own small page cache rather than better-sqlite3's 16 MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { BIBLE_CACHE_KIB, openBibleDatabase } from '../../src/bible/bible-database.ts';

let dir: string;
let file: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bible-database-'));
  file = path.join(dir, 'bible.sqlite');
  const db = new Database(file);
  db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)');
  db.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('openBibleDatabase', () => {
  test('keeps a page cache of BIBLE_CACHE_KIB per connection', () => {
    const db = openBibleDatabase(file);
    try {
      expect(db.pragma('cache_size', { simple: true })).toBe(-BIBLE_CACHE_KIB);
    } finally {
      db.close();
    }
  });

  test('opens read-only: a write is refused', () => {
    const db = openBibleDatabase(file);
    try {
      expect(() => db.exec("INSERT INTO meta VALUES ('k', 'v')")).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });

  test('refuses a file that does not exist instead of creating it', () => {
    const missing = path.join(dir, 'missing.sqlite');
    expect(() => openBibleDatabase(missing)).toThrow();
    expect(fs.existsSync(missing)).toBe(false);
  });
});
