// The bench starts the service with npm start's own command line (package.json), so its figures are those of `npm start`.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { npmStartArguments } from '../../../scripts/bench/service.ts';

const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  scripts: { start: string };
};

describe('npmStartArguments', () => {
  test("takes Node's flags and entry from package.json's start script, whatever they are", () => {
    const args = npmStartArguments(packageJson.scripts.start);
    expect(`exec node ${args.join(' ')}`).toBe(packageJson.scripts.start);
    expect(args.at(-1)).toBe('scripts/start.mjs');
  });

  test('keeps flags before the entry, in order', () => {
    expect(npmStartArguments('exec node --max-semi-space-size=8 --no-warnings scripts/start.mjs')).toEqual([
      '--max-semi-space-size=8',
      '--no-warnings',
      'scripts/start.mjs',
    ]);
  });

  test('refuses a start script it could not run the same way without a shell', () => {
    expect(() => npmStartArguments('tsx scripts/start.ts')).toThrow(/start script/);
    expect(() => npmStartArguments('exec node scripts/a.mjs && node scripts/b.mjs')).toThrow(/start script/);
    expect(() => npmStartArguments('exec node "$FLAGS" scripts/start.mjs')).toThrow(/start script/);
  });
});
