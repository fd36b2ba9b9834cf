// The build report: per version what was read, what was missing, merged, extra or not understood; output sizes; timings.
import { dirname } from 'node:path';
import type { AlignmentSummary } from './alignment/version-verse-map.ts';
import { staticPaths } from './contract/layout.ts';
import type { DownloadLink } from './contract/response-schemas.ts';
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
  /** What the reader met in the source: parse errors, unknown markup, verses without text, joined verses. */
  issues: Partial<Record<IssueKind, IssueSummary>>;
  /**
   * Where the version numbers its verses otherwise than the versification it was compared with
   * (KJV, for sources that do not name theirs): expected, since each version keeps its own.
   */
  versificationDifferences?: { comparedWith: string } & Partial<Record<'missing-verse' | 'extra-verse', IssueSummary>>;
  /** The version's download file (the versions list's link): reused with the version's other files. */
  download: DownloadLink;
  /** How the version lines up with the shared numbering (data/versification-mapping.json, checked against its text). */
  alignment?: AlignmentSummary;
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

/** Groups a version's issues by kind, its numbering differences from a reference versification apart. */
export function versionReport(
  counts: VersionCounts,
  issues: readonly SourceIssue[],
): Pick<VersionReport, keyof VersionCounts | 'issues' | 'versificationDifferences'> {
  const byKind: Partial<Record<IssueKind, IssueSummary>> = {};
  let differences: VersionReport['versificationDifferences'];
  for (const issue of issues) {
    if (issue.comparedWith !== undefined && (issue.kind === 'missing-verse' || issue.kind === 'extra-verse')) {
      differences ??= { comparedWith: issue.comparedWith };
      addIssue(differences, issue);
    } else {
      addIssue(byKind, issue);
    }
  }
  return { ...counts, issues: byKind, ...(differences ? { versificationDifferences: differences } : {}) };
}

/** The counts a version report holds (what the stamp and the versions list publish). */
export function versionCountsOf({ lang, code, books, chapters, verses }: VersionReport): VersionCounts {
  return { lang, code, books, chapters, verses };
}

/**
 * A short human summary: one line per version, the expected numbering differences said to be
 * expected, the problems met in the sources (and only those) listed as problems, the outputs,
 * the steps and the total.
 */
export function formatReport(report: BuildReport): string {
  const lines = [`Bible build ${report.buildHash.slice(0, 12)}`];
  for (const version of report.versions) {
    const notes: string[] = [];
    const differences = version.versificationDifferences;
    if (differences) {
      const missing = differences['missing-verse']?.count ?? 0;
      const extra = differences['extra-verse']?.count ?? 0;
      notes.push(
        `own verse numbering: ${count(missing, `${differences.comparedWith} verse number`)} unused, ` +
          `${count(extra, 'number')} beyond ${differences.comparedWith}'s`,
      );
    }
    const merged = version.issues['merged-verse']?.count ?? 0;
    if (merged > 0) notes.push(`${count(merged, 'joined verse')} (text under the first number)`);
    if (version.reused) notes.push('unchanged, reused');
    lines.push(
      `  ${version.lang} ${version.code.padEnd(6)} ${version.books} books, ${version.chapters} chapters, ${version.verses} verses` +
        (notes.length > 0 ? `; ${notes.join('; ')}` : ''),
    );
  }
  const comparedWith = [...new Set(report.versions.flatMap((version) => version.versificationDifferences?.comparedWith ?? []))];
  lines.push(
    `  Each version keeps its own versification (verse numbering)${
      comparedWith.length > 0 ? `: differences from the ${comparedWith.join(', ')} versification are expected, not problems` : ''
    }.`,
  );
  const aligned = report.versions.filter((version) => version.alignment);
  if (aligned.length > 0) {
    lines.push(
      `  Aligned with the shared numbering (data/versification-mapping.json, checked against each text): ${aligned
        .map(({ code, alignment }) => {
          const apart = [
            alignment!.unmatched.length > 0 ? `${alignment!.unmatched.length} unmatched` : '',
            alignment!.absent.length > 0 ? `${alignment!.absent.length} absent` : '',
          ].filter(Boolean);
          return `${code} ${alignment!.renumbered} renumbered${apart.length > 0 ? ` (${apart.join(', ')})` : ''}`;
        })
        .join(', ')}.`,
    );
  }
  const problems = report.versions.flatMap((version) =>
    PROBLEMS.flatMap(({ kind, name, names }) => {
      const summary = version.issues[kind];
      if (!summary || summary.count === 0) return [];
      return [`    ${version.lang} ${version.code}: ${count(summary.count, name, names)} (${problemPlaces(summary)})`];
    }),
  );
  if (problems.length === 0) lines.push('  No problems found in the sources.');
  else lines.push('  Problems found in the sources (each worked around; the JSON report lists them all):', ...problems);
  const { outputs } = report;
  lines.push(
    `  output: ${outputs.files} files, ${megabytes(outputs.bytes)} (+${outputs.compressedFiles} compressed: ` +
      `br ${megabytes(outputs.bytesBrotli)}, gz ${megabytes(outputs.bytesGzip)}); search ${megabytes(outputs.searchIndexBytes)}; ` +
      `database ${megabytes(outputs.databaseBytes)}`,
  );
  const reused = report.versions.filter((version) => version.reused).map((version) => version.code);
  if (reused.length > 0)
    lines.push(
      `  reused unchanged: ${reused.join(', ')}; rebuilt: ${
        report.versions
          .filter((v) => !v.reused)
          .map((v) => v.code)
          .join(', ') || 'none'
      }`,
    );
  lines.push(
    `  steps: ${Object.entries(report.timings)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)}s`)
      .join(', ')}`,
  );
  lines.push(`  total ${(report.totalMs / 1000).toFixed(1)} s`);
  return lines.join('\n');
}

/** The kinds of issue that are problems in a source, as the summary names them. */
const PROBLEMS: readonly { kind: IssueKind; name: string; names?: string }[] = [
  { kind: 'parse-error', name: 'parse error' },
  { kind: 'unknown-markup', name: 'unknown markup', names: 'unknown markups' },
  { kind: 'missing-verse', name: 'verse without text', names: 'verses without text' },
  { kind: 'extra-verse', name: 'verse out of place', names: 'verses out of place' },
];

const LISTED_IN_SUMMARY = 5;

/** The first few places of a problem; with the reader's detail when there is one kind of detail to show. */
function problemPlaces(summary: IssueSummary): string {
  const places = summary.samples
    ? summary.samples.slice(0, LISTED_IN_SUMMARY).map((sample) => `${sample.where}: ${sample.detail}`)
    : summary.where.slice(0, LISTED_IN_SUMMARY);
  const more = summary.count - places.length;
  return places.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** "1 verse", "2 verses"; `plural` where adding an s would not do. */
function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

function addIssue(groups: Partial<Record<IssueKind, IssueSummary>>, issue: SourceIssue): void {
  const summary = (groups[issue.kind] ??= { count: 0, where: [] });
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

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
