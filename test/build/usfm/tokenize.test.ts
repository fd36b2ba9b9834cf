// The USFM tokenizer: markers, closing markers and text, each where it stands in the file.
import { describe, expect, it } from 'vitest';
import { tokenizeUsfm } from '../../../build/usfm/tokenize.ts';

describe('tokenizeUsfm', () => {
  it('splits markers from text, eats the one space that ends a marker, and gives line and column', () => {
    expect(tokenizeUsfm('\\v 1 Au \\+nd Seigneur\\+nd*.\n\\q2 Fin')).toEqual([
      { type: 'marker', name: 'v', nested: false, line: 1, column: 1 },
      { type: 'text', text: '1 Au ', line: 1, column: 4 },
      { type: 'marker', name: 'nd', nested: true, line: 1, column: 9 },
      { type: 'text', text: 'Seigneur', line: 1, column: 14 },
      { type: 'end', name: 'nd', nested: true, line: 1, column: 22 },
      { type: 'text', text: '.\n', line: 1, column: 27 },
      { type: 'marker', name: 'q2', nested: false, line: 2, column: 1 },
      { type: 'text', text: 'Fin', line: 2, column: 5 },
    ]);
  });

  it('skips a byte-order mark, reads CRLF line ends, and marks a lone backslash as stray', () => {
    expect(tokenizeUsfm('\uFEFF\\p\r\nA \\ B')).toEqual([
      { type: 'marker', name: 'p', nested: false, line: 1, column: 1 },
      { type: 'text', text: 'A ', line: 2, column: 1 },
      { type: 'stray', line: 2, column: 3 },
      { type: 'text', text: ' B', line: 2, column: 4 },
    ]);
  });
});
