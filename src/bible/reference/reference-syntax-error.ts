// The one error the reference parser throws: what it could not read, and where.

/**
 * A reference that could not be read. `offset` is the 0-based index into the text of the part
 * at fault and `found` that part ("" at the end of the text); the message says both, with a
 * 1-based character position, and what was expected there.
 */
export class ReferenceSyntaxError extends Error {
  readonly offset: number;
  readonly found: string;

  constructor(offset: number, found: string, expected: string) {
    const where = found === '' ? `at the end (character ${offset + 1})` : `"${found}" at character ${offset + 1}`;
    super(`could not read ${where}: ${expected}`);
    this.name = 'ReferenceSyntaxError';
    this.offset = offset;
    this.found = found;
  }
}
