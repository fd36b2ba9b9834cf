// Source paths, SHA-256 verification and the choice of sources directory.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SOURCES_DIR,
  resolveSourcesDir,
  SourceMismatchError,
  SourceMissingError,
  sourcePath,
  verifySourceFile,
} from '../../build/sources.ts';
import { fakeManifestEntry } from '../helpers/manifest-entry.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bible-sources-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('verifySourceFile', () => {
  it('answers the SHA-256 of the pinned file', async () => {
    const entry = fakeManifestEntry('good.zip', sha256('in the beginning'));
    await writeFile(sourcePath(dir, entry), 'in the beginning');
    await expect(verifySourceFile(sourcePath(dir, entry), entry)).resolves.toEqual({ sha256: entry.sha256 });
  });

  it('names the file, both hashes and the remedy when the bytes differ', async () => {
    const entry = fakeManifestEntry('changed.zip', sha256('in the beginning'));
    const path = sourcePath(dir, entry);
    await writeFile(path, 'in the beginning.');
    const error = await verifySourceFile(path, entry).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceMismatchError);
    const mismatch = error as SourceMismatchError;
    expect(mismatch.expected).toBe(entry.sha256);
    expect(mismatch.actual).toBe(sha256('in the beginning.'));
    expect(mismatch.message).toContain(path);
    expect(mismatch.message).toContain(entry.sha256);
    expect(mismatch.message).toContain(sha256('in the beginning.'));
    expect(mismatch.message).toContain('npm run fetch:bible');
    expect(mismatch.message).toContain('BIBLE_SOURCES_DIR');
  });

  it('says the file is missing, and what to do, when there is none', async () => {
    const entry = fakeManifestEntry('absent.zip', sha256('x'));
    const path = sourcePath(dir, entry);
    const error = await verifySourceFile(path, entry).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceMissingError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('npm run fetch:bible');
  });

  it('treats a directory in place of the file as missing', async () => {
    const entry = fakeManifestEntry('folder.zip', sha256('x'));
    await mkdir(sourcePath(dir, entry));
    await expect(verifySourceFile(sourcePath(dir, entry), entry)).rejects.toBeInstanceOf(SourceMissingError);
  });
});

describe('resolveSourcesDir', () => {
  it('prefers --sources over BIBLE_SOURCES_DIR over data/sources/', () => {
    const env = { BIBLE_SOURCES_DIR: '/from/env' };
    expect(resolveSourcesDir('/from/flag', env)).toBe('/from/flag');
    expect(resolveSourcesDir(undefined, env)).toBe('/from/env');
    expect(resolveSourcesDir(undefined, {})).toBe(DEFAULT_SOURCES_DIR);
    expect(DEFAULT_SOURCES_DIR).toMatch(/data[\\/]sources[\\/]?$/);
  });

  it('takes relative paths from the working directory and ignores a blank variable', () => {
    expect(resolveSourcesDir('src-dir', {}, '/work')).toBe('/work/src-dir');
    expect(resolveSourcesDir(undefined, { BIBLE_SOURCES_DIR: 'env-dir' }, '/work')).toBe('/work/env-dir');
    expect(resolveSourcesDir(undefined, { BIBLE_SOURCES_DIR: '  ' })).toBe(DEFAULT_SOURCES_DIR);
  });
});
