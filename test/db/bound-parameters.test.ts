// Parameters SQLite's planner reads (src/db/bound-parameters.ts): LIMIT and OFFSET written so that a statement is not re-prepared at every run, FTS5 rowid bounds cast to INTEGER.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fg from 'fast-glob';
import { describe, expect, test } from 'vitest';
import { BOUND_LIMIT, BOUND_LIMIT_OFFSET, FTS_ROWID_RANGE } from '../../src/db/bound-parameters.ts';

const ROOT = path.join(import.meta.dirname, '../..');

/** The lines of the service's and the build's TypeScript that match `pattern`, as file:line: text. */
async function linesMatching(pattern: RegExp, ignore: string[] = []): Promise<string[]> {
  const files = await fg(['src/**/*.ts', 'build/**/*.ts'], { cwd: ROOT, ignore });
  expect(files.length).toBeGreaterThan(100);
  return files.flatMap((file) =>
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('LIMIT and OFFSET bound to parameters', () => {
  test('no SQLite statement of the service or the build binds a bare LIMIT ? or OFFSET ? (SQL is written in capitals here; PostgreSQL numbers its parameters: $1)', async () => {
    expect(await linesMatching(/\b(LIMIT|OFFSET)\s+\?/, ['src/db/bound-parameters.ts'])).toEqual([]);
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

describe('FTS5 rowid bounds', () => {
  test('a number better-sqlite3 binds is a REAL, which FTS5 does not take as a rowid bound: why FTS_ROWID_RANGE casts', () => {
    const db = new Database(':memory:');
    expect(db.prepare('SELECT typeof(?) AS type').get(31_085)).toEqual({ type: 'real' });
    db.exec('CREATE VIRTUAL TABLE f USING fts5(word)');
    for (let row = 0; row < 50; row++) db.prepare('INSERT INTO f (word) VALUES (?)').run(row % 2 === 0 ? 'de la' : 'le');
    const inRange = db.prepare(`SELECT rowid FROM f WHERE f MATCH 'de' AND ${FTS_ROWID_RANGE} ORDER BY rowid`).pluck();
    expect(inRange.all(10, 20)).toEqual([11, 13, 15, 17, 19]);
  });

  test('every rowid bound of the service and the build is cast to INTEGER (FTS_ROWID_RANGE)', async () => {
    expect(await linesMatching(/\browid\s*(BETWEEN|>=|<=|>|<|=)\s*\?/)).toEqual([]);
  });
});
