// The scripts' command lines: a bad option ends the script at once with one line that names it and the usage.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface ScriptRun {
  code: number;
  stderr: string;
}

/** Runs a script as `npm run` would (tsx), without the sources variable of the test environment. */
async function runScript(script: string, args: string[]): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
  delete env.BIBLE_SOURCES_DIR;
  try {
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: stripVTControlCharacters(failed.stderr) };
  }
}

describe('script command lines', () => {
  let out = '';

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'script-options-'));
  });

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it.each([
    ['an option without its value', ['--sources'], /--sources/],
    ['an option followed by another instead of a value', ['--sources', '--force'], /--sources/],
    ['an empty value', ['--out='], /--out' needs a value/],
    ['an unknown option', ['--nope'], /--nope/],
    ['a positional argument', ['public'], /public/],
  ])('build:bible refuses %s in one line', async (_case, args, message) => {
    const { code, stderr } = await runScript('scripts/build-bible.ts', args);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('see the usage at the top of scripts/build-bible.ts');
  });

  it('build:bible takes --sources=DIR and reports the missing sources there, writing nothing', async () => {
    const sources = join(out, 'no-sources');
    const { code, stderr } = await runScript('scripts/build-bible.ts', [
      `--sources=${sources}`,
      '--out',
      join(out, 'public'),
      '--db',
      join(out, 'var', 'bible.sqlite'),
      '--report',
      join(out, 'var', 'report.json'),
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain(`no file at ${sources}`);
    expect(await readdir(out)).toEqual([]);
  });

  it('fetch:bible refuses an unknown option', async () => {
    const { code, stderr } = await runScript('scripts/fetch-bible.ts', ['--mirrror', 'https://example.org']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/--mirrror/);
    expect(stderr).toContain('scripts/fetch-bible.ts');
  });

  it('bench:bible refuses a number of runs that is not a whole number', async () => {
    const { code, stderr } = await runScript('scripts/bench-bible.ts', ['--runs', 'three']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/--runs must be a whole number/);
  });
});
