// The query database's format: the DDL has the columns both sides name, and a verse survives being stored.
import { describe, expect, it } from 'vitest';
import {
  BIBLE_COLUMNS,
  BIBLE_DATABASE_DDL,
  type BibleTable,
  insertRowSql,
  readBibleMeta,
  storedVerse,
  verseFromRow,
} from '../../../build/contract/bible-database.ts';
import Database from '../../../build/contract/sqlite-driver.ts';
import type { Verse } from '../../../build/contract/verse.ts';

function emptyBibleDatabase(): Database.Database {
  const db = new Database(':memory:');
  db.exec(BIBLE_DATABASE_DDL);
  return db;
}

describe('the Bible database format', () => {
  it('creates each table with exactly the columns the writer and the service name, in order', () => {
    const db = emptyBibleDatabase();
    try {
      for (const table of Object.keys(BIBLE_COLUMNS) as BibleTable[]) {
        const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`).all();
        expect(
          columns.map((column) => column.name),
          table,
        ).toEqual([...BIBLE_COLUMNS[table]]);
      }
    } finally {
      db.close();
    }
  });

  it('inserts a row object by column name', () => {
    expect(insertRowSql('meta')).toBe('INSERT INTO meta (key, value) VALUES (@key, @value)');
    const db = emptyBibleDatabase();
    try {
      db.prepare(insertRowSql('books')).run({
        lang: 'en',
        usfm: 'JHN',
        ord: 43,
        abbr: 'John',
        name: 'John',
        testament: 'NT',
        chapters: 21,
      });
      expect(db.prepare('SELECT * FROM books').get()).toEqual({
        lang: 'en',
        usfm: 'JHN',
        ord: 43,
        abbr: 'John',
        name: 'John',
        testament: 'NT',
        chapters: 21,
      });
    } finally {
      db.close();
    }
  });

  it('reads the schema version and build hash from meta, and nothing else', () => {
    const db = emptyBibleDatabase();
    try {
      expect(readBibleMeta(db)).toEqual({});
      const insert = db.prepare(insertRowSql('meta'));
      insert.run({ key: 'schemaVersion', value: '1' });
      insert.run({ key: 'buildHash', value: 'abc' });
      insert.run({ key: 'other', value: 'ignored' });
      expect(readBibleMeta(db)).toEqual({ schemaVersion: '1', buildHash: 'abc' });
    } finally {
      db.close();
    }
  });

  it('gives back the verse it stored, side fields included', () => {
    const verses: Verse[] = [
      { number: 1, text: 'Plain.' },
      { number: 2, text: 'Headed and annotated.', heading: 'A heading', notes: ['One.', 'Two.'] },
    ];
    for (const verse of verses) expect(verseFromRow(storedVerse(verse))).toEqual(verse);
  });

  it('stores no side field that says nothing', () => {
    expect(storedVerse({ number: 4, text: 'Four.', notes: [] })).toEqual({
      verse: 4,
      text: 'Four.',
      heading: null,
      notes: null,
    });
  });
});
