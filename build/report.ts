// The build report: per version what was read, what was missing, merged, extra or not understood; output sizes; timings.
import { dirname } from 'node:path';
import { staticPaths } from './contract/layout.ts';
import type { VersionCounts } from './contract/stamp.ts';
import type { SourceIssue } from './model.ts';

type IssueKind = SourceIssue['kind'];

/** Issues of one kind: how many, and where (all of them for verse issues, samples for markup). */
export interface IssueSummary {
  count: number;
  /** Every location for missing/merged/extra verses (up to a cap); a few samples for other kinds. */
  where: string[];
  /** For unknown markup and parse errors: a few distinct details with a location each. */
  samples?: { where: string; detail: string }[];
}

export interface VersionReport extends VersionCounts {
  issues: Partial<Record<IssueKind, IssueSummary>>;
  /** The version's hash (build/build-hashes.ts), as the stamp lists it. */
  versionHash: string;
  /** True when this build reused the previous build's outputs of the version (its hash had not changed). */
  reused: boolean;
}

export interface OutputSizes {
  /** Files of the static tree and search indexes, without their compressed copies. */
  files: number;
  bytes: number;
  /** The .br and .gz copies. */
  compressedFiles: number;
  bytesBrotli: number;
  bytesGzip: number;
  searchIndexBytes: number;
  databaseBytes: number;
}

export interface BuildReport {
  buildHash: string;
  builtAt: string;
  versions: VersionReport[];
  outputs: OutputSizes;
  /** Milliseconds per step ("verify", "read LSG", "static tree", ...), in the order they ran. */
  timings: Record<string, number>;
  totalMs: number;
}

/** No output yet. */
export function emptyOutputSizes(): OutputSizes {
  return { files: 0, bytes: 0, compressedFiles: 0, bytesBrotli: 0, bytesGzip: 0, searchIndexBytes: 0, databaseBytes: 0 };
}

/** Adds one written file (a path relative to the public folder, and its size) to the sizes. */
export function countOutput(sizes: OutputSizes, file: { path: string; bytes: number }): void {
  if (file.path.endsWith('.br')) {
    sizes.compressedFiles++;
    sizes.bytesBrotli += file.bytes;
  } else if (file.path.endsWith('.gz')) {
    sizes.compressedFiles++;
    sizes.bytesGzip += file.bytes;
  } else {
    sizes.files++;
    sizes.bytes += file.bytes;
    if (file.path.startsWith(SEARCH_FOLDER)) sizes.searchIndexBytes += file.bytes;
  }
}

const SEARCH_FOLDER = `${dirname(staticPaths.searchIndex('en'))}/`;

const VERSE_ISSUES: readonly IssueKind[] = ['missing-verse', 'merged-verse', 'extra-verse'];
const LISTED_LOCATIONS = 1000;
const SAMPLES = 10;

/** Groups a version's issues by kind. */
export function versionReport(counts: VersionCounts, issues: readonly SourceIssue[]): Pick<VersionReport, keyof VersionCounts | 'issues'> {
  const byKind: Partial<Record<IssueKind, IssueSummary>> = {};
  for (const issue of issues) {
    const summary = (byKind[issue.kind] ??= { count: 0, where: [] });
    summary.count++;
    const listAll = VERSE_ISSUES.includes(issue.kind);
    if (summary.where.length < (listAll ? LISTED_LOCATIONS : SAMPLES)) summary.where.push(issue.where);
    if (!listAll) {
      summary.samples ??= [];
      if (summary.samples.length < SAMPLES && !summary.samples.some((sample) => sample.detail === issue.detail)) {
        summary.samples.push({ where: issue.where, detail: issue.detail.slice(0, 200) });
      }
    }
  }
  return { ...counts, issues: byKind };
}

/** The counts a version report holds (what the stamp and the versions list publish). */
export function versionCountsOf({ lang, code, books, chapters, verses }: VersionReport): VersionCounts {
  return { lang, code, books, chapters, verses };
}

/** A short human summary: one line per version, the outputs, the slowest steps and the total. */
export function formatReport(report: BuildReport): string {
  const lines = [`Bible build ${report.buildHash.slice(0, 12)}`];
  for (const version of report.versions) {
    const issues = Object.entries(version.issues)
      .map(([kind, summary]) => `${summary.count} ${kind}`)
      .join(', ');
    lines.push(
      `  ${version.lang} ${version.code.padEnd(6)} ${version.books} books, ${version.chapters} chapters, ${version.verses} verses` +
        (issues ? ` (${issues})` : ''),
    );
  }
  const { outputs } = report;
  lines.push(
    `  output: ${outputs.files} files, ${megabytes(outputs.bytes)} (+${outputs.compressedFiles} compressed: ` +
      `br ${megabytes(outputs.bytesBrotli)}, gz ${megabytes(outputs.bytesGzip)}); search ${megabytes(outputs.searchIndexBytes)}; ` +
      `database ${megabytes(outputs.databaseBytes)}`,
  );
  lines.push(
    `  steps: ${Object.entries(report.timings)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)}s`)
      .join(', ')}`,
  );
  lines.push(`  total ${(report.totalMs / 1000).toFixed(1)} s`);
  return lines.join('\n');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
