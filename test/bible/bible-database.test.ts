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

  test('keeps the shared lock after its first read: another connection cannot take the file for writing, and readers still can', () => {
    const db = openBibleDatabase(file);
    const writer = new Database(file, { timeout: 0 });
    const reader = new Database(file, { readonly: true, timeout: 0 });
    try {
      db.prepare('SELECT count(*) FROM meta').get();
      expect(() => writer.exec('BEGIN EXCLUSIVE')).toThrow(/locked/);
      expect(reader.prepare('SELECT count(*) AS n FROM meta').get()).toEqual({ n: 0 });
    } finally {
      writer.close();
      reader.close();
      db.close();
    }
  });

  test('with keepLock false (BIBLE_DB_KEEP_LOCK=false), locks per query as SQLite does: the file can be taken between queries', () => {
    const db = openBibleDatabase(file, false);
    const writer = new Database(file, { timeout: 0 });
    try {
      db.prepare('SELECT count(*) FROM meta').get();
      writer.exec('BEGIN EXCLUSIVE');
      writer.exec('ROLLBACK');
    } finally {
      writer.close();
      db.close();
    }
  });

  test('refuses a file that does not exist instead of creating it', () => {
    const missing = path.join(dir, 'missing.sqlite');
    expect(() => openBibleDatabase(missing)).toThrow();
    expect(fs.existsSync(missing)).toBe(false);
  });
});
