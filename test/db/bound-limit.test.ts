// LIMIT and OFFSET bound to parameters: written as bound-limit.ts says everywhere SQLite runs them (a bare `LIMIT ?` re-prepares its statement at every run), with the same rows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fg from 'fast-glob';
import { describe, expect, test } from 'vitest';
import { BOUND_LIMIT, BOUND_LIMIT_OFFSET } from '../../src/db/bound-limit.ts';

const ROOT = path.join(import.meta.dirname, '../..');

describe('LIMIT and OFFSET bound to parameters', () => {
  test('no SQLite statement of the service or the build binds a bare LIMIT ? or OFFSET ? (SQL is written in capitals here; PostgreSQL numbers its parameters: $1)', async () => {
    const files = await fg(['src/**/*.ts', 'build/**/*.ts'], { cwd: ROOT, ignore: ['src/db/bound-limit.ts'] });
    const bare = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\b(LIMIT|OFFSET)\s+\?/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(bare).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  test('give the rows a literal LIMIT and OFFSET give, on a table and on an FTS5 table', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, word TEXT); CREATE VIRTUAL TABLE f USING fts5(word)');
    const words = ['grace', 'peace', 'grace and peace', 'love', 'grace upon grace', 'faith', 'grace'];
    for (const word of words) {
      db.prepare('INSERT INTO t (word) VALUES (?)').run(word);
      db.prepare('INSERT INTO f (word) VALUES (?)').run(word);
    }
    const cases: [number, number][] = [
      [2, 0],
      [2, 1],
      [10, 3],
      [0, 0],
    ];
    for (const [limit, offset] of cases) {
      const literal = (sql: string) => db.prepare(sql.replace('#', `LIMIT ${limit} OFFSET ${offset}`)).all();
      const bound = (sql: string, ...args: unknown[]) => db.prepare(sql.replace('#', BOUND_LIMIT_OFFSET)).all(...args, limit, offset);
      const table = 'SELECT id FROM t WHERE id > ? ORDER BY id #';
      const fts = "SELECT rowid FROM f WHERE f MATCH 'grace' ORDER BY rowid #";
      expect(bound(table, 1)).toEqual(literal(table.replace('?', '1')));
      expect(bound(fts)).toEqual(literal(fts));
    }
    expect(db.prepare(`SELECT id FROM t ORDER BY id ${BOUND_LIMIT}`).all(3)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
});
