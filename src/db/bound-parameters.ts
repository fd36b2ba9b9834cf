// Parameters SQLite's planner reads, written so that it plans as meant: LIMIT and OFFSET prepared once rather than at every run, FTS5 rowid bounds it can seek to.

/**
 * SQLite (3.53, the one better-sqlite3 ships) reads the value bound to a bare `LIMIT ?` (and, on a
 * virtual table such as FTS5, to `OFFSET ?`) while it plans the statement: `sqlite3ExprIsInteger`
 * marks that parameter in the statement's `expmask`, so binding it again, as every run does, expires
 * the statement and the next step prepares it anew. Measured on the Bible database: a three-verse
 * passage 18-19 µs with `LIMIT ? OFFSET ?` against 6 µs, a page of search hits 95-105 against
 * 77-84 µs (issue 28). A unary plus is not a bare parameter: the value is read when the statement
 * runs, the plan and the rows are the same.
 *
 * @example db.prepare(`SELECT … ORDER BY id ${BOUND_LIMIT_OFFSET}`).all(…, limit, offset)
 */
export const BOUND_LIMIT_OFFSET = 'LIMIT +? OFFSET +?';

/** `LIMIT ?` without an offset, for the same reason as BOUND_LIMIT_OFFSET. */
export const BOUND_LIMIT = 'LIMIT +?';

/**
 * A search's rowid range (one language, book or testament), as FTS5 can use it. better-sqlite3 binds a
 * JavaScript number as a REAL, and FTS5 takes a rowid bound only when it is an INTEGER
 * (`fts5GetRowidLimit`): a REAL one is left to SQLite, which then filters every hit of every language
 * that FTS5 walks from the start of the word's list. Cast, FTS5 seeks to the range (its doclist index)
 * and stops at its end. Measured on the five-language database: the count of "de" in Dutch (the last
 * language in rowid order) 5.6 -> 1.4 ms, its first page 4.8 ms -> 56 µs; the same rows (issue 28).
 */
export const FTS_ROWID_RANGE = 'rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)';
