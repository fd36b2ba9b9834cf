// The bundles' source maps, cut to one mapping per source line: stack traces still name the TypeScript file and line.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { bundleEntry, loadEsbuild, root } from '../../../scripts/lib/bundle.mjs';
import { firstMappingPerLine, lineLevelSourceMap } from '../../../scripts/lib/line-source-map.mjs';

describe('firstMappingPerLine', () => {
  test('keeps the first segment of each line at column 0, with source positions relative to the last kept one', () => {
    // Line 1: columns 0 and 4 of source 0, line 0, columns 0 and 4. Line 2: column 0 of line 1, column 4.
    expect(firstMappingPerLine('AAAA,IAAI;AACA')).toBe('AAAA;AACI');
  });

  test('keeps empty lines empty and skips segments without a source', () => {
    // Line 1: a segment with only a generated column, then one at source 0, line 2, column 3 from column 6.
    expect(firstMappingPerLine('C,IAEG;;GAAC')).toBe('AAEG;;AAAC');
  });

  test('reads and writes values of several VLQ digits and negative deltas', () => {
    // Column 1000 of line 500, then line 10 column 0 on the next generated line.
    const mapping = firstMappingPerLine('AAAA;AAqfwwC;AAmehwC');
    expect(mapping).toBe('AAAA;AAqfwwC;AAmehwC');
  });

  test('keeps a segment where the source line changes within a generated line (minified whitespace), not one per token', () => {
    // One generated line: columns 0 and 4 on source line 0, column 8 on source line 1.
    expect(firstMappingPerLine('AAAA,IAAI,IACA')).toBe('AAAA,QACI');
  });

  test('in a package’s source, keeps only the segment where that source begins', () => {
    // Source 0, then source 1 (a package) on lines 0, 1 and 2, then source 2 on line 2.
    expect(firstMappingPerLine('AAAA,ICAA,IACA,IACA,ICAA', (source) => source === 1)).toBe('AAAA,ICAA,YCEA');
    expect(firstMappingPerLine('AAAA,ICAA,IACA,IACA,ICAA')).toBe('AAAA,ICAA,IACA,IACA,ICAA');
  });

  test('lineLevelSourceMap drops names and keeps the rest of the map', () => {
    const map = { version: 3, sources: ['a.ts'], names: ['x'], mappings: 'AAAAA,IAAIC' };
    expect(JSON.parse(lineLevelSourceMap(JSON.stringify(map)))).toEqual({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' });
  });
});

describe('bundleEntry', () => {
  test('writes a map with one mapping per source line, and a stack trace still names the TypeScript file and the line', async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'line-map-'));
    const esbuild = loadEsbuild();
    let moduleFile: string;
    try {
      moduleFile = await bundleEntry(esbuild, {
        entry: 'test/scripts/lib/fixtures/throws-on-line-8.ts',
        outDir: path.relative(root, outDir),
      });
    } finally {
      await esbuild.stop();
    }
    const map = JSON.parse(fs.readFileSync(`${moduleFile}.map`, 'utf8')) as { mappings: string };
    // The fixture has 9 lines of code (esbuild maps every token: about 40 segments).
    expect(map.mappings.split(/[;,]/).filter(Boolean).length).toBeLessThanOrEqual(9);
    const failed = await promisify(execFile)(process.execPath, ['--enable-source-maps', moduleFile]).catch(
      (error: { stderr: string }) => error,
    );
    expect(failed.stderr).toContain('deliberate: to name the line');
    expect(failed.stderr).toMatch(/test\/scripts\/lib\/fixtures\/throws-on-line-8\.ts:8:\d+/);
    fs.rmSync(outDir, { recursive: true, force: true });
  });
});
