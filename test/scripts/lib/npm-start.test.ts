// npm start's command line read from package.json: the bench starts the service with it, the binary carries its Node flags.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { npmStartArguments, npmStartNodeFlags } from '../../../scripts/lib/npm-start.ts';

const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  scripts: { start: string };
};

describe('npmStartArguments', () => {
  test("takes Node's flags and entry from package.json's start script, whatever they are", () => {
    const args = npmStartArguments(packageJson.scripts.start);
    expect(`exec node ${args.join(' ')}`).toBe(packageJson.scripts.start);
    expect(args.at(-1)).toBe('scripts/start.mjs');
  });

  test("npmStartNodeFlags are the start script's flags before the entry", () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    expect(npmStartNodeFlags(root)).toEqual(npmStartArguments(packageJson.scripts.start).slice(0, -1));
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
