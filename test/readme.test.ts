// The README a newcomer reads in three minutes, and the docs/ pages it links: short, true to .ci/run and the tests' REQUIRE_* flags, no broken link.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const README = path.join(ROOT, 'README.md');
const MAX_README_LINES = 250;

const read = (file: string) => fs.readFileSync(file, 'utf8');
const readme = read(README);
const ciRun = read(path.join(ROOT, '.ci/run'));

/** The REQUIRE_* variables a text names. */
function requireFlags(text: string): string[] {
  return [...new Set(text.match(/\bREQUIRE_[A-Z0-9_]+/g) ?? [])].sort();
}

/** README.md and every page under docs/. */
function markdownFiles(): string[] {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return [README, ...docs.map((name) => path.join(ROOT, 'docs', name))];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])));
}

describe('the README', () => {
  it(`has at most ${MAX_README_LINES} lines`, () => {
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('names every REQUIRE_* flag the tests read, and .ci/run sets each of them', () => {
    const requirements = requireFlags(read(path.join(ROOT, 'test/helpers/requirements.ts')));
    expect(requirements.length).toBeGreaterThanOrEqual(6);
    // Any other test file that reads a flag of its own counts too.
    const testFiles = fs
      .readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== 'readme.test.ts');
    const readElsewhere = testFiles.flatMap((file) => requireFlags(read(path.join(ROOT, 'test', file)).replace(/REQUIRE_\*/g, '')));
    const flags = [...new Set([...requirements, ...readElsewhere])].sort();
    expect(flags).toEqual(requirements);
    for (const flag of flags) {
      expect(readme, flag).toContain(`\`${flag}\``);
      expect(ciRun, flag).toMatch(new RegExp(`^export ${flag}=1$`, 'm'));
    }
  });

  it("names .ci/run's Debian packages as .ci/run installs them", () => {
    const install = /apt-get install [^\n]*?--no-install-recommends ([a-z0-9 .+-]+?) >/.exec(ciRun)?.[1];
    expect(install?.split(' ')).toHaveLength(5);
    expect(readme).toContain(`\`${install}\``);
  });

  it('shows the two commands', () => {
    expect(readme).toMatch(/^npm install && npm start +#/m);
    expect(readme).toMatch(/^npm test +#/m);
  });
});

describe('the links of the README and the docs/ pages', () => {
  it('lead to files that exist, and to headings that exist in them', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [filePart, anchor] = target.split('#');
        const linked = filePart === '' ? file : path.resolve(path.dirname(file), filePart);
        const where = `${path.relative(ROOT, file)} → ${target}`;
        if (!fs.existsSync(linked)) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(read(linked)).has(anchor))
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('are found by this check (it reads the README and every docs/ page)', () => {
    const files = markdownFiles().map((file) => path.relative(ROOT, file));
    expect(files).toContain('docs/configuration.md');
    expect(readme).toContain('](docs/configuration.md)');
    expect(anchorOf('Keys and limits')).toBe('keys-and-limits');
    expect(anchorOf('What `npm start` does')).toBe('what-npm-start-does');
  });
});
