// An incremental build: a changed source rebuilds its version only, the others are reused as they are, and the result equals a full build.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { type BuildOptions, buildBible } from '../../build/pipeline.ts';
import type { BuildReport } from '../../build/report.ts';
import type { VersionManifestEntry } from '../../build/version-manifest.ts';
import { syntheticManifestEntry } from '../helpers/manifest-entry.ts';
import { syntheticVersesOfTheDay, syntheticVersification } from '../helpers/synthetic-alignment.ts';
import { syntheticText } from '../helpers/synthetic-model.ts';

const LANGS = ['fr', 'es'] as const;

describe('incremental Bible build (two synthetic versions)', () => {
  let dir = '';
  let first: BuildReport;
  let second: BuildReport;
  const before = new Map<string, { ino: number; mtimeMs: number }>();

  /** Options building into `out`, with the source of es at `esRevision` (its text says which). */
  const optionsFor = async (out: string, esRevision: string): Promise<BuildOptions> => {
    const entries: VersionManifestEntry[] = [];
    for (const lang of LANGS) {
      const bytes = Buffer.from(lang === 'es' ? `es source, revision ${esRevision}` : `${lang} source`);
      await writeFile(join(dir, `${lang}.src`), bytes);
      entries.push(syntheticManifestEntry(lang, `${lang}.src`, bytes));
    }
    return {
      sourcesDir: dir,
      publicDir: join(out, 'public'),
      databasePath: join(out, 'var/bible.sqlite'),
      reportPath: join(out, 'var/bible-report.json'),
      versions: entries,
      readVersion: (entry, bytes) => {
        const text = syntheticText(entry.lang);
        // The source's own words become John 3:17, so another source is another text.
        text.books[2].chapters[2].verses[1].text = String(Buffer.from(bytes));
        return text;
      },
      versification: syntheticVersification(entries),
      versesOfTheDay: syntheticVersesOfTheDay(),
    };
  };
  const reportOf = (result: Awaited<ReturnType<typeof buildBible>>): BuildReport => {
    if (result.status !== 'built') throw new Error(`expected a build, got ${result.status}`);
    return result.report;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-incremental-'));
    first = reportOf(await buildBible(await optionsFor(join(dir, 'live'), '1')));
    for (const file of await filesUnder(join(dir, 'live/public'))) {
      const { ino, mtimeMs } = await stat(join(dir, 'live/public', file));
      before.set(file, { ino, mtimeMs });
    }
    second = reportOf(await buildBible(await optionsFor(join(dir, 'live'), '2')));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rebuilds only the version whose source changed, and says so', () => {
    expect(first.versions.map((version) => [version.code, version.reused])).toEqual([
      ['LSG', false],
      ['RVR', false],
    ]);
    expect(second.versions.map((version) => [version.code, version.reused])).toEqual([
      ['LSG', true],
      ['RVR', false],
    ]);
    expect(second.versions[0].versionHash).toBe(first.versions[0].versionHash);
    expect(second.versions[1].versionHash).not.toBe(first.versions[1].versionHash);
    expect(second.buildHash).not.toBe(first.buildHash);
    expect(Object.keys(second.timings)).toContain('reuse LSG');
    expect(Object.keys(second.timings)).not.toContain('read LSG');
  });

  it("keeps the unchanged version's files as they were (same inode and mtime) and writes the changed one's anew", async () => {
    const kept = [
      'api/v1/bible/fr/books.json',
      'api/v1/bible/fr/JHN/3.json',
      'api/v1/bible/fr/JHN/3.json.gz',
      'bible-search/fr.json',
      'bible-search/fr.json.gz',
    ];
    for (const file of kept) {
      const { ino, mtimeMs } = await stat(join(dir, 'live/public', file));
      expect({ file, ino, mtimeMs }).toEqual({ file, ...before.get(file) });
    }
    const changed = await stat(join(dir, 'live/public/api/v1/bible/es/JHN/3.json'));
    expect(changed.ino).not.toBe(before.get('api/v1/bible/es/JHN/3.json')?.ino);
    const chapter = JSON.parse(await readFile(join(dir, 'live/public/api/v1/bible/es/JHN/3.json'), 'utf8'));
    expect(chapter.verses[1].text).toBe('es source, revision 2');
  });

  it('stamps each version with its hash and the build with the new one, in the tree and the database', async () => {
    const stamp = JSON.parse(await readFile(join(dir, 'live/public/api/v1/bible/build.json'), 'utf8'));
    expect(stamp.buildHash).toBe(second.buildHash);
    expect(stamp.versions.map((version: { versionHash: string }) => version.versionHash)).toEqual(
      second.versions.map((version) => version.versionHash),
    );
    const index = JSON.parse(await readFile(join(dir, 'live/public/bible-search/es.json'), 'utf8'));
    expect(index.versionHash).toBe(second.versions[1].versionHash);
    const db = new Database(join(dir, 'live/var/bible.sqlite'), { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM meta WHERE key = 'buildHash'").get()).toEqual({ value: second.buildHash });
    } finally {
      db.close();
    }
  });

  it('gives the same tree, indexes and database rows as a full build of the same sources', async () => {
    const full = reportOf(await buildBible({ ...(await optionsFor(join(dir, 'full'), '2')), force: true }));
    expect(full.buildHash).toBe(second.buildHash);
    const liveFiles = await filesUnder(join(dir, 'live/public'));
    expect(liveFiles).toEqual(await filesUnder(join(dir, 'full/public')));
    for (const file of liveFiles) {
      const [live, rebuilt] = await Promise.all([readFile(join(dir, 'live/public', file)), readFile(join(dir, 'full/public', file))]);
      expect(live.equals(rebuilt), file).toBe(true);
    }
    expect(databaseRows(join(dir, 'live/var/bible.sqlite'))).toEqual(databaseRows(join(dir, 'full/var/bible.sqlite')));
  });

  it('answers a search over a reused version from the full-text index', () => {
    const db = new Database(join(dir, 'live/var/bible.sqlite'), { readonly: true });
    try {
      const hits = db
        .prepare(
          "SELECT v.lang, v.usfm, v.chapter, v.verse FROM verses_fts JOIN verses v ON v.id = verses_fts.rowid WHERE verses_fts MATCH 'eternel'",
        )
        .all();
      expect(hits).toEqual([{ lang: 'fr', usfm: 'GEN', chapter: 1, verse: 1 }]);
    } finally {
      db.close();
    }
  });
});

/** Every file under `root`, relative to it, sorted. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

/** Every row of the database's tables (meta included), in rowid order (the pivots, which have no rowid, by verse). */
function databaseRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const rows: Record<string, unknown[]> = {};
    for (const table of ['meta', 'versions', 'books', 'verses']) rows[table] = db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
    rows.verse_pivots = db.prepare('SELECT * FROM verse_pivots ORDER BY verse_id, pivot').all();
    return rows;
  } finally {
    db.close();
  }
}
