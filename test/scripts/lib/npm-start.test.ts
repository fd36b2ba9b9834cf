// npm start's command line read from package.json: the bench starts the service with it, the binary carries its Node flags.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { npmNodeCommand, npmStartArguments, npmStartEnvironment, npmStartNodeFlags } from '../../../scripts/lib/npm-start.ts';

const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('npmStartArguments', () => {
  test("takes Node's flags and entry from package.json's start script, whatever they are", () => {
    const args = npmStartArguments(packageJson.scripts.start);
    const assignments = Object.entries(npmStartEnvironment(packageJson.scripts.start)).map(([name, value]) => `${name}=${value} `);
    expect(`${assignments.join('')}exec node ${args.join(' ')}`).toBe(packageJson.scripts.start);
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

  test('leaves the variables set before exec to npmStartEnvironment', () => {
    const script = 'MALLOC_ARENA_MAX=2 A_B=x exec node --max-semi-space-size=8 scripts/start.mjs';
    expect(npmStartArguments(script)).toEqual(['--max-semi-space-size=8', 'scripts/start.mjs']);
    expect(npmStartEnvironment(script)).toEqual({ MALLOC_ARENA_MAX: '2', A_B: 'x' });
    expect(npmStartEnvironment('exec node scripts/start.mjs')).toEqual({});
  });

  test('refuses a start script it could not run the same way without a shell', () => {
    expect(() => npmStartArguments('A=$HOME exec node scripts/start.mjs')).toThrow(/start script/);
    expect(() => npmStartArguments('A="x y" exec node scripts/start.mjs')).toThrow(/start script/);
    expect(() => npmStartArguments('tsx scripts/start.ts')).toThrow(/start script/);
    expect(() => npmStartArguments('exec node scripts/a.mjs && node scripts/b.mjs')).toThrow(/start script/);
    expect(() => npmStartArguments('exec node "$FLAGS" scripts/start.mjs')).toThrow(/start script/);
  });
});

describe('npmNodeCommand', () => {
  test("reads any script's Node arguments and variables from package.json: build:bible runs its bundling launcher with no loader", () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const { args, env } = npmNodeCommand(root, 'build:bible');
    const assignments = Object.entries(env).map(([name, value]) => `${name}=${value} `);
    expect(`${assignments.join('')}exec node ${args.join(' ')}`).toBe(packageJson.scripts['build:bible']);
    expect(args.at(-1)).toBe('scripts/build-bible.mjs');
    expect(args).not.toContain('tsx');
    expect(() => npmNodeCommand(root, 'no-such-script')).toThrow(/no no-such-script script/);
  });

  test("gives the variables build:bible sets for Node: glibc's top pad, read only at a process's start", () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    expect(npmNodeCommand(root, 'build:bible').env).toEqual({ MALLOC_TOP_PAD_: String(64 * 1024 * 1024) });
  });

  test("gives npm start's variables and arguments as the start script's own parsers do", () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    expect(npmNodeCommand(root, 'start')).toEqual({
      args: npmStartArguments(packageJson.scripts.start),
      env: npmStartEnvironment(packageJson.scripts.start),
    });
    expect(npmNodeCommand(root, 'start').env).toHaveProperty('MALLOC_ARENA_MAX', '2');
  });

  test('names the script it could not read', () => {
    expect(() => npmStartArguments('tsx scripts/build-bible.ts', 'build:bible')).toThrow(/build:bible script/);
  });
});
