// The messages between the build's main thread and its two worker threads (tree-thread.ts, index-thread.ts).
import type { MessagePort } from 'node:worker_threads';
import type { VersionMappingRules } from '../alignment/mapping-data.ts';
import type { DayPassage } from '../alignment/verses-of-the-day.ts';
import type { Lang } from '../contract/books.ts';
import type { VerseMap } from '../contract/verse-map.ts';
import type { Book, VersionText } from '../model.ts';
import type { VersionReport } from '../report.ts';
import type { VersionManifestEntry } from '../version-manifest.ts';
import type { VersionInfo } from './types.ts';

/** A file written, by its path relative to the staging folder. */
export interface WrittenFile {
  path: string;
  bytes: number;
}

/** How long each step took, in milliseconds ("read KJV", "index KJV"). */
export type StepTimings = Record<string, number>;

/**
 * How many versions' books the index thread has taken, shared by both threads (an Int32Array of one
 * element over a SharedArrayBuffer): the tree thread waits on it before handing over the next
 * version.
 */
export type ConsumedCounter = Int32Array;

/** The tree thread is started with: the staging folder, its end of the channel to the index thread, and the shared counter. */
export interface TreeThreadData {
  job: 'bible-tree';
  dir: string;
  toIndex: MessagePort;
  consumed: ConsumedCounter;
  /** Whether the files get their `.br` and `.gz` copies (not for a host that compresses itself). */
  precompressed: boolean;
}

/** The index thread is started with: the staging folder, the database, and its end of the channel from the tree thread. */
export interface IndexThreadData {
  job: 'bible-index';
  dir: string;
  databasePath: string;
  buildHash: string;
  fromTree: MessagePort;
  consumed: ConsumedCounter;
  /** Whether the search indexes get their `.br` and `.gz` copies (not for a host that compresses itself). */
  precompressed: boolean;
}

/** Main → tree thread: read one version (or take the text the main thread read) and write its files. */
export interface TreeJob {
  entry: VersionManifestEntry;
  sourcePath: string;
  /** Given when the build was handed its own reader (tests): the thread writes this text instead of reading the source. */
  text?: VersionText;
  /** The version's versification mapping, checked against its text, and the days of the year whose passages it writes. */
  alignment: { rules: VersionMappingRules; days: readonly DayPassage[] };
}

/**
 * Either thread → main: a large file (a search index, a download) is written under the staging
 * folder; the main thread makes its compressed copies (version-threads.ts says why).
 */
export interface CompressRequest {
  kind: 'compress';
  path: string;
}

/** Tree thread → main. */
export type FromTreeThread =
  | { kind: 'progress'; step: string }
  | CompressRequest
  | {
      kind: 'built';
      report: Pick<VersionReport, 'lang' | 'code' | 'books' | 'chapters' | 'verses' | 'issues' | 'download' | 'alignment'>;
      files: WrittenFile[];
      timings: StepTimings;
    }
  | { kind: 'failed'; message: string; stack?: string };

/**
 * Tree thread → index thread, per version in order: its verse map (checked against its text), its
 * canonical books, one message each, then the end of its books.
 */
export type TreeToIndexMessage = { kind: 'verse-map'; map: VerseMap } | { kind: 'book'; book: Book } | { kind: 'end' };

/** Main → index thread, in the build's version order. */
export type IndexJob =
  | { kind: 'build'; info: VersionInfo; versionHash: string }
  | { kind: 'copy'; lang: Lang; previousDatabase: string }
  | { kind: 'finish' };

/** Index thread → main: one answer per job, in order, and a request to compress each search index it writes. */
export type FromIndexThread =
  | CompressRequest
  | { kind: 'done'; files: WrittenFile[]; timings: StepTimings }
  | { kind: 'finished'; databaseBytes: number; timings: StepTimings }
  | { kind: 'failed'; message: string; stack?: string };
