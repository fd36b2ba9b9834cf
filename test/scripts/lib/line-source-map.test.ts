// The bundles' source maps, cut to one mapping per line: stack traces still name the TypeScript file and line.
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

  test('lineLevelSourceMap drops names and keeps the rest of the map', () => {
    const map = { version: 3, sources: ['a.ts'], names: ['x'], mappings: 'AAAAA,IAAIC' };
    expect(JSON.parse(lineLevelSourceMap(JSON.stringify(map)))).toEqual({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' });
  });
});

describe('bundleEntry', () => {
  test('writes a map with one mapping per line, and a stack trace still names the TypeScript file and the line', async () => {
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
    expect(map.mappings.split(';').every((line) => !line.includes(','))).toBe(true);
    const failed = await promisify(execFile)(process.execPath, ['--enable-source-maps', moduleFile]).catch(
      (error: { stderr: string }) => error,
    );
    expect(failed.stderr).toContain('deliberate: to name the line');
    expect(failed.stderr).toMatch(/test\/scripts\/lib\/fixtures\/throws-on-line-8\.ts:8:\d+/);
    fs.rmSync(outDir, { recursive: true, force: true });
  });
});
