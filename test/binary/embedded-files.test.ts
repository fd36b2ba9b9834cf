// The single binary carries every file the service reads at run time (checked from the source, without building the binary).
import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { readEmbeddedFiles } from '../../scripts/binary/embedded-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the files embedded in the binary', () => {
  it('include every file or folder the service names with resourcePath', async () => {
    const embedded = Object.keys(await readEmbeddedFiles(ROOT));
    const named = fg
      .sync('src/**/*.ts', { cwd: ROOT })
      .flatMap((file) =>
        [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/resourcePath\('([^']+)'\)/g)].map((match) => match[1]),
      );
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const name of named)
      expect(
        embedded.some((file) => file === name || file.startsWith(`${name}/`)),
        name,
      ).toBe(true);
  });

  it('are the repository files as they are', async () => {
    const embedded = await readEmbeddedFiles(ROOT);
    expect(Object.keys(embedded)).toContain('data/migrations/001_church_data.sql');
    for (const [file, text] of Object.entries(embedded)) expect(text, file).toBe(fs.readFileSync(path.join(ROOT, file), 'utf8'));
  });
});
