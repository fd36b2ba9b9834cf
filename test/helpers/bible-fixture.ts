// Test helper: a tiny built Bible (static tree, search indexes, query database) from the synthetic model, made with the build's writers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rulesFor, type VersificationMapping } from '../../build/alignment/mapping-data.ts';
import { PivotNumbering } from '../../build/alignment/pivot-numbering.ts';
import { dayPassages, type VersesOfTheDay } from '../../build/alignment/verses-of-the-day.ts';
import { VerseAlignment } from '../../build/contract/verse-map.ts';
import { alignedVersion } from '../../build/writers/alignment-files.ts';
import { precompress } from '../../build/writers/compress.ts';
import { writeDatabase } from '../../build/writers/database.ts';
import { writeOutputs } from '../../build/writers/output-dir.ts';
import { searchIndexes } from '../../build/writers/search-index.ts';
import { staticTree } from '../../build/writers/static-tree.ts';
import type { BuiltVersion, OutputFile } from '../../build/writers/types.ts';
import { SYNTHETIC_SOURCE, syntheticVersesOfTheDay, syntheticVersification } from './synthetic-alignment.ts';
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

/** How the fixture's versions align, as the build's data files say it (by default, the synthetic mapping and days). */
export interface FixtureAlignment {
  versification: VersificationMapping;
  versesOfTheDay: VersesOfTheDay;
}

/**
 * Builds the synthetic five-language Bible (or `given` versions) into a new temporary folder; the
 * synthetic one with its verse maps, days and pivot rows, given versions with `alignment`'s (none
 * by default).
 *
 * @example const bible = await buildBibleFixture(); const server = await startTestServer(bible.env);
 */
export async function buildBibleFixture(
  given?: readonly BuiltVersion[],
  buildHash = 'test-build-1',
  // Versions of a test's own making have no mapping unless the test gives one.
  alignment: FixtureAlignment | null = given === undefined ? syntheticAlignment() : null,
): Promise<BibleFixture> {
  const versions = given ?? syntheticVersions();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bible-fixture-'));
  const publicDir = path.join(dir, 'public');
  const databasePath = path.join(dir, 'bible.sqlite');
  await writeBibleBuild(publicDir, databasePath, versions, buildHash, alignment);
  return {
    dir,
    publicDir,
    databasePath,
    buildHash,
    env: { BIBLE_PUBLIC_DIR: publicDir, BIBLE_DB_PATH: databasePath },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** The synthetic versions' mapping and days (synthetic-alignment.ts). */
function syntheticAlignment(): FixtureAlignment {
  return {
    versification: syntheticVersification(syntheticVersions().map(({ info }) => ({ code: info.code, sha256: SYNTHETIC_SOURCE }))),
    versesOfTheDay: syntheticVersesOfTheDay(),
  };
}

/** Writes tree and database of one build (used again by tests that rebuild in place). */
export async function writeBibleBuild(
  publicDir: string,
  databasePath: string,
  versions: readonly BuiltVersion[],
  buildHash: string,
  alignment: FixtureAlignment | null = null,
): Promise<void> {
  const versionHash = (info: { code: string }) => `${buildHash}-${info.code}`;
  const tree = [...staticTree(versions, buildHash, versionHash), ...searchIndexes(versions, versionHash)];
  const alignments = new Map<string, VerseAlignment>();
  // Day files go uncompressed, as the build writes them (about 1 kB each).
  const dayFiles: OutputFile[] = [];
  if (alignment) {
    const { versification } = alignment;
    const days = dayPassages(alignment.versesOfTheDay, new PivotNumbering(versification.pivot));
    for (const version of versions) {
      const aligned = alignedVersion(
        { ...version, info: { ...version.info, sha256: SYNTHETIC_SOURCE } },
        rulesFor(versification, version.info.code),
        days,
      );
      tree.push(aligned.verseMapFile);
      alignments.set(version.info.code, new VerseAlignment(aligned.map));
      dayFiles.push(...aligned.dayFiles);
    }
  }
  const files = [...tree, ...dayFiles, ...(await precompress(tree, { brotliQuality: 4 }))];
  await writeOutputs(publicDir, files, ['api/v1/bible', 'bible-search']);
  await writeDatabase(databasePath, versions, buildHash, alignments);
}
