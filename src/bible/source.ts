// The built Bible the service serves: the static tree and the query database of one build, checked together.
import fs from 'node:fs';
import path from 'node:path';
import { readBibleMeta } from '../../build/contract/bible-database.ts';
import { BIBLE_SCHEMA_VERSION, staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import type Database from '../../build/contract/sqlite-driver.ts';
import { type BuildStamp, BuildStampError, parseBuildStamp } from '../../build/contract/stamp.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
import { type AnswerCache, createAnswerCache } from './answer-cache.ts';
import { openBibleDatabase } from './bible-database.ts';
import { type BibleQueries, createBibleQueries } from './queries.ts';
import { createQueryPool, type QueryPool } from './search-pool.ts';
import { createStaticFiles, type StaticFiles } from './static-files.ts';

/** One opened build: its database queries and its static files, both of the same build hash. */
export interface BibleBuild {
  buildHash: string;
  /** On the event loop: for the cheap, indexed lookups (books, ranges), well under a millisecond each. */
  queries: BibleQueries;
  /** The same queries on worker threads: for searches, whose cost depends on what a client asks. */
  pool: QueryPool;
  files: StaticFiles;
  /** Answers of ranges and searches already made from this build, bounded by bytes. */
  answers: AnswerCache;
}

export type BibleStatus = { available: true; buildHash: string } | { available: false; reason: string };

export interface BibleSource {
  /**
   * The build to serve, or an ApiError 503 (problem+json with a build hint and Retry-After)
   * when there is none. Re-checks the files at most every `recheckMs`, so a build that lands
   * while the server runs is picked up (and a new build hash reopens the database).
   *
   * @example const { queries } = services.bible.current();
   */
  current(): BibleBuild;
  /** Whether a build is being served, and why not; re-checks like current(). */
  status(): BibleStatus;
  /** Closes the database of the current build and stops its search workers once their queries are done. */
  close(): Promise<void>;
}

export interface BibleSourceOptions {
  /** How often, at most, the stamp and database are looked at again (default 10 s). */
  recheckMs?: number;
  /** The clock that interval is measured on, in ms (default Date.now): a test moves it instead of waiting. */
  now?: () => number;
  /** Seconds a client is told to wait in the 503's Retry-After (default 60). */
  retryAfterSeconds?: number;
}

type SourceConfig = Pick<
  Config,
  | 'biblePublicDir'
  | 'bibleDatabasePath'
  | 'bibleDatabaseKeepsLock'
  | 'bibleSearchWorkers'
  | 'bibleSearchQueue'
  | 'bibleSearchTimeoutMs'
  | 'bibleAnswerCacheBytes'
>;

/** An opened build and what must be closed with it. */
type OpenBuild = BibleBuild & { db: Database.Database };

/** A stamp as far as the service relies on it. */
type Stamp = Pick<BuildStamp, 'schemaVersion' | 'buildHash'>;

/** What the artifacts looked like when last checked, to skip reopening when nothing changed. */
interface Fingerprint {
  stampText: string | null;
  databaseFile: string;
}

/**
 * Opens the Bible of `config.biblePublicDir` and `config.bibleDatabasePath`. Never throws:
 * a missing or mismatched build makes the source unavailable, with the reason logged.
 */
export function openBibleSource(config: SourceConfig, logger: Logger, options: BibleSourceOptions = {}): BibleSource {
  const recheckMs = options.recheckMs ?? 10_000;
  const clock = options.now ?? Date.now;
  const retryAfter = options.retryAfterSeconds ?? 60;
  let build: OpenBuild | null = null;
  let unavailableReason = 'The Bible has not been checked yet.';
  let lastCheck = -Infinity;
  let lastFingerprint: string | null = null;

  const recheckNow = (): void => {
    lastCheck = -Infinity;
  };
  // A search pool that stopped (its workers found another build, or could not start) is
  // replaced by opening the build again, even when the files look unchanged.
  const reopenNow = (): void => {
    lastFingerprint = null;
    recheckNow();
  };

  const check = (): void => {
    const now = clock();
    if (now - lastCheck < recheckMs) return;
    lastCheck = now;
    const fingerprint = JSON.stringify(artifactFingerprint(config));
    if (fingerprint === lastFingerprint) return;
    lastFingerprint = fingerprint;
    const opened = openBuild(config, logger, { onStale: recheckNow, onPoolStopped: reopenNow });
    if ('reason' in opened && build && opened.stampBuildHash === build.buildHash) {
      // A build swaps the database in first and the tree a few seconds later. Until the tree
      // moves, the open handle still reads the old database file, which matches the old tree:
      // keep serving that pair rather than answer 503 for the length of the swap.
      logger.info(
        { buildHash: build.buildHash, reason: opened.reason },
        'bible database changed on disk; serving the open build until its tree changes too',
      );
      return;
    }
    if ('reason' in opened) {
      if (build || opened.reason !== unavailableReason) {
        logger.warn({ reason: opened.reason, publicDir: config.biblePublicDir, database: config.bibleDatabasePath }, 'bible unavailable');
      }
      void closeBuild(build);
      build = null;
      unavailableReason = opened.reason;
      return;
    }
    if (build && build.buildHash === opened.buildHash && !build.pool.stopped) {
      // Same build, only the files were touched: keep the warm one.
      void closeBuild(opened);
      return;
    }
    // A server that was searching keeps searching: the new build's workers start now, not at the next search.
    if (build?.pool.started) opened.pool.start();
    void closeBuild(build);
    build = opened;
    logger.info({ buildHash: opened.buildHash }, 'bible build opened');
  };

  return {
    current() {
      check();
      if (build) return build;
      throw new ApiError(problems.bibleNotBuilt(unavailableReason, retryAfter));
    },
    status() {
      check();
      return build ? { available: true, buildHash: build.buildHash } : { available: false, reason: unavailableReason };
    },
    async close() {
      const closing = build;
      build = null;
      unavailableReason = 'The Bible source is closed.';
      lastFingerprint = null;
      lastCheck = Infinity;
      await closeBuild(closing);
    },
  };
}

/** Closes the build's connection now; its workers finish the searches they hold, then stop. */
async function closeBuild(build: OpenBuild | null): Promise<void> {
  if (!build) return;
  build.db.close();
  await build.pool.close();
}

/** Opens database and tree, or says why they cannot be served together. */
function openBuild(
  config: SourceConfig,
  logger: Logger,
  { onStale, onPoolStopped }: { onStale: () => void; onPoolStopped: () => void },
): OpenBuild | { reason: string; stampBuildHash?: string } {
  const stampFile = path.join(config.biblePublicDir, staticPaths.stamp);
  const stamp = readStamp(stampFile, staticPaths.stamp);
  if ('reason' in stamp) return stamp;
  const unavailable = (reason: string) => ({ reason, stampBuildHash: stamp.buildHash });
  if (!fs.existsSync(config.bibleDatabasePath)) {
    return unavailable('The Bible has not been built: its query database is missing.');
  }
  let db: Database.Database;
  try {
    db = openBibleDatabase(config.bibleDatabasePath, config.bibleDatabaseKeepsLock);
  } catch (error) {
    return unavailable(`The Bible query database cannot be opened (${errorMessage(error)}).`);
  }
  try {
    const meta = readBibleMeta(db);
    if (meta.schemaVersion !== String(BIBLE_SCHEMA_VERSION)) {
      db.close();
      return unavailable(
        `The Bible database has schema version ${meta.schemaVersion ?? 'none'}; this service reads version ${BIBLE_SCHEMA_VERSION}.`,
      );
    }
    const databaseHash = meta.buildHash;
    if (databaseHash !== stamp.buildHash) {
      db.close();
      return unavailable(
        `The Bible tree (build ${stamp.buildHash}) and database (build ${databaseHash ?? 'none'}) come from different builds.`,
      );
    }
    return {
      db,
      buildHash: stamp.buildHash,
      queries: createBibleQueries(db),
      pool: createQueryPool({
        databasePath: config.bibleDatabasePath,
        keepLock: config.bibleDatabaseKeepsLock,
        buildHash: stamp.buildHash,
        workers: config.bibleSearchWorkers,
        maxQueued: config.bibleSearchQueue,
        timeoutMs: config.bibleSearchTimeoutMs,
        logger,
        onStopped: onPoolStopped,
      }),
      files: createStaticFiles(config.biblePublicDir, { buildHash: stamp.buildHash, onStale }),
      answers: createAnswerCache(config.bibleAnswerCacheBytes),
    };
  } catch (error) {
    db.close();
    return unavailable(`The Bible query database is not from a Bible build (${errorMessage(error)}).`);
  }
}

function readStamp(file: string, name: string): Stamp | { reason: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { reason: `The Bible has not been built: ${name} is missing.` };
  }
  try {
    return parseBuildStamp(text);
  } catch (error) {
    if (error instanceof BuildStampError) return { reason: `The Bible build stamp ${name} ${error.message}.` };
    throw error;
  }
}

/**
 * Cheap look at the artifacts: the stamp's bytes and the database file's identity. A build
 * renames new files into place, so a new inode or mtime means "open again".
 */
function artifactFingerprint(config: Pick<Config, 'biblePublicDir' | 'bibleDatabasePath'>): Fingerprint {
  let stampText: string | null = null;
  try {
    stampText = fs.readFileSync(path.join(config.biblePublicDir, staticPaths.stamp), 'utf8');
  } catch {
    stampText = null;
  }
  let databaseFile = 'missing';
  try {
    const stat = fs.statSync(config.bibleDatabasePath);
    databaseFile = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    databaseFile = 'missing';
  }
  return { stampText, databaseFile };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
