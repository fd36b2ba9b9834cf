// The build summary: differences from the KJV versification are said to be expected, and only real problems are listed as problems.
import { describe, expect, it } from 'vitest';
import type { SourceIssue } from '../../build/model.ts';
import { type BuildReport, emptyOutputSizes, formatReport, type VersionReport, versionReport } from '../../build/report.ts';

/** A version's report entry as the build makes it from what its reader noticed. */
function entry(lang: 'fr' | 'es', code: string, issues: SourceIssue[], reused = false): VersionReport {
  return {
    ...versionReport({ lang, code, books: 66, chapters: 1189, verses: 31_000 }, issues),
    download: { url: `/api/v1/bible/download?lang=${lang}`, bytes: 1, sha256: '0'.repeat(64) },
    versionHash: `${code}-hash`,
    reused,
  };
}

function report(versions: VersionReport[]): BuildReport {
  return {
    buildHash: 'a'.repeat(64),
    builtAt: '2024-01-01T00:00:00.000Z',
    versions,
    outputs: emptyOutputSizes(),
    timings: {},
    totalMs: 1234,
  };
}

const numbering: SourceIssue[] = [
  { kind: 'missing-verse', where: 'EXO 8:29', detail: 'in KJV but not in the source', comparedWith: 'KJV' },
  { kind: 'missing-verse', where: 'EXO 8:30', detail: 'in KJV but not in the source', comparedWith: 'KJV' },
  { kind: 'extra-verse', where: 'EXO 7:26', detail: 'in the source but not in KJV', comparedWith: 'KJV' },
];

describe('the build summary', () => {
  it('says that differences from the KJV versification are expected, and does not list them as problems', () => {
    const summary = formatReport(report([entry('fr', 'LSG', numbering), entry('es', 'RVR', [])]));
    expect(summary).toContain('differences from the KJV versification are expected, not problems');
    expect(summary).toContain(
      'fr LSG    66 books, 1189 chapters, 31000 verses; own verse numbering: 2 KJV verse numbers unused, 1 number beyond KJV',
    );
    expect(summary).toContain('No problems found in the sources.');
    expect(summary).not.toMatch(/EXO 8:29|EXO 7:26/);
  });

  it('lists parse errors, unknown markup and verses without text as problems, with where they are', () => {
    const problems: SourceIssue[] = [
      { kind: 'parse-error', where: 'PSA.sfm:7238:1', detail: '"\\v 11 5…" read as verse 115' },
      { kind: 'missing-verse', where: 'JON 1:17', detail: 'the module has no text for this verse' },
      { kind: 'unknown-markup', where: 'GEN 1:2', detail: '<foo>' },
    ];
    const summary = formatReport(report([entry('fr', 'LSG', [...numbering, problems[0]]), entry('es', 'RVR', problems.slice(1))]));
    const listed = summary.slice(summary.indexOf('Problems found in the sources'), summary.indexOf('  output:'));
    expect(listed.split('\n').slice(1, -1)).toEqual([
      '    fr LSG: 1 parse error (PSA.sfm:7238:1: "\\v 11 5…" read as verse 115)',
      '    es RVR: 1 unknown markup (GEN 1:2: <foo>)',
      '    es RVR: 1 verse without text (JON 1:17)',
    ]);
    expect(summary).not.toContain('No problems found');
  });

  it('keeps the numbering differences apart from the problems in the JSON report', () => {
    const lsg = entry('fr', 'LSG', [...numbering, { kind: 'missing-verse', where: 'GEN 1:3', detail: 'verse marker with no text' }]);
    expect(lsg.versificationDifferences).toEqual({
      comparedWith: 'KJV',
      'missing-verse': { count: 2, where: ['EXO 8:29', 'EXO 8:30'] },
      'extra-verse': { count: 1, where: ['EXO 7:26'] },
    });
    expect(lsg.issues).toEqual({ 'missing-verse': { count: 1, where: ['GEN 1:3'] } });
  });

  it('names the versions an incremental build reused', () => {
    const summary = formatReport(report([entry('fr', 'LSG', [], true), entry('es', 'RVR', [])]));
    expect(summary).toContain('fr LSG    66 books, 1189 chapters, 31000 verses; unchanged, reused');
    expect(summary).toContain('reused unchanged: LSG; rebuilt: RVR');
  });
});
