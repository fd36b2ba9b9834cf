// The components of the OpenAPI document are listed in the order localeCompare gave them, without ICU's collation.

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { alphabetical } from '../../../src/docs/openapi/schema-components.ts';
import { openApiDocument } from '../../../src/docs/openapi.ts';

describe('the order of the schema components', () => {
  it('is the order localeCompare gives the document’s component names', () => {
    const document = openApiDocument(loadConfig({})) as { components: { schemas: Record<string, unknown> } };
    const names = Object.keys(document.components.schemas);
    expect(names.length).toBeGreaterThan(10);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('ignores case first, then puts the lower-case name first, as localeCompare does', () => {
    const names = ['ChurchEvent', 'Churches', 'church', 'Church', 'Book2', 'Book10', 'BOOK', 'aB', 'Ab', 'Zeta', 'alpha'];
    expect([...names].sort(alphabetical)).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });
});
