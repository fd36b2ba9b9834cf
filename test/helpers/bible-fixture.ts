// Test helper: a tiny built Bible (static tree, search indexes, query database) from the synthetic model, made with the build's writers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { precompress } from '../../build/writers/compress.ts';
import { writeDatabase } from '../../build/writers/database.ts';
import { writeOutputs } from '../../build/writers/output-dir.ts';
import { searchIndexes } from '../../build/writers/search-index.ts';
import { staticTree } from '../../build/writers/static-tree.ts';
import type { BuiltVersion } from '../../build/writers/types.ts';
import { syntheticVersions } from './synthetic-model.ts';

export interface BibleFixture {
  /** Folder holding `public/` and `bible.sqlite`. */
  dir: string;
  publicDir: string;
  databasePath: string;
  buildHash: string;
  /** BIBLE_PUBLIC_DIR and BIBLE_DB_PATH for startTestServer. */
  env: Record<string, string>;
  remove(): void;
}

/**
 * Builds the synthetic five-language Bible into a new temporary folder.
 *
 * @example const bible = await buildBibleFixture(); const server = await startTestServer(bible.env);
 */
export async function buildBibleFixture(
  versions: readonly BuiltVersion[] = syntheticVersions(),
  buildHash = 'test-build-1',
): Promise<BibleFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bible-fixture-'));
  const publicDir = path.join(dir, 'public');
  const databasePath = path.join(dir, 'bible.sqlite');
  await writeBibleBuild(publicDir, databasePath, versions, buildHash);
  return {
    dir,
    publicDir,
    databasePath,
    buildHash,
    env: { BIBLE_PUBLIC_DIR: publicDir, BIBLE_DB_PATH: databasePath },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Writes tree and database of one build (used again by tests that rebuild in place). */
export async function writeBibleBuild(
  publicDir: string,
  databasePath: string,
  versions: readonly BuiltVersion[],
  buildHash: string,
): Promise<void> {
  const versionHash = (info: { code: string }) => `${buildHash}-${info.code}`;
  const tree = [...staticTree(versions, buildHash, versionHash), ...searchIndexes(versions, versionHash)];
  const files = [...tree, ...(await precompress(tree, { brotliQuality: 4 }))];
  await writeOutputs(publicDir, files, ['api/v1/bible', 'bible-search']);
  await writeDatabase(databasePath, versions, buildHash);
}
