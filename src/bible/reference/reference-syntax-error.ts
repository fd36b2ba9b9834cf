// The one error the reference parser throws: what it could not read, or could not tell the meaning of, and where.

/**
 * A reference that could not be read, or that reads two ways in its language (`ambiguous`).
 * `offset` is the 0-based index into the text of the part at fault and `found` that part
 * ("" at the end of the text); the message says both, with a 1-based character position, and
 * what was expected there or how to write each meaning.
 */
export class ReferenceSyntaxError extends Error {
  readonly offset: number;
  readonly found: string;
  readonly ambiguous: boolean;

  constructor(offset: number, found: string, expected: string, options: { ambiguous?: boolean } = {}) {
    const where = found === '' ? `at the end (character ${offset + 1})` : `"${found}" at character ${offset + 1}`;
    super(options.ambiguous ? `cannot tell what ${where} means: ${expected}` : `could not read ${where}: ${expected}`);
    this.name = 'ReferenceSyntaxError';
    this.offset = offset;
    this.found = found;
    this.ambiguous = options.ambiguous === true;
  }
}
