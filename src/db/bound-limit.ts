// LIMIT and OFFSET bound to parameters, written so that SQLite prepares a statement once, not at every run.

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
