// npm start's bundle of the service: the pure-JavaScript packages inside, the native ones and those loaded only when used outside, all of it ASCII.
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import glob from 'fast-glob';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEsbuild, root } from '../../../scripts/lib/bundle.mjs';
import { bundleService, SERVICE_EXTERNAL_PACKAGES } from '../../../scripts/lib/service-bundle.mjs';

let outDir: string;
let bundle: string;
/** The files the bundle was made from (absolute paths), as its manifest records them. */
let inputs: string[];

beforeAll(async () => {
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  outDir = fs.mkdtempSync(path.join(root, 'dist', 'test-service-bundle-'));
  const file = await bundleService(loadEsbuild, path.relative(root, outDir));
  bundle = fs.readFileSync(file, 'utf8');
  inputs = Object.keys(JSON.parse(fs.readFileSync(path.join(outDir, 'server.inputs.json'), 'utf8')).inputs);
}, 60_000);

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** The package an import specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/** The packages (names under node_modules/) the bundle holds files of. */
function packagesInside(): Set<string> {
  return new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
}

describe("npm start's service bundle", () => {
  test('holds the packages the service loads at start, so that they are not 700 scripts kept with their comments', () => {
    expect([...packagesInside()]).toEqual(
      expect.arrayContaining(['zod', '@modelcontextprotocol/sdk', 'ajv', 'ical.js', '@sinclair/typebox', 'express', 'find-my-way', 'pino']),
    );
  });

  test('leaves out the native addons and the packages loaded only when used, which stay imports', () => {
    const inside = packagesInside();
    for (const name of SERVICE_EXTERNAL_PACKAGES) expect(inside.has(name), name).toBe(false);
    const lazy = ['pg', 'redis', 'rate-limit-redis', 'nodemailer', 'openid-client'];
    // Not toContain: a failure would print the whole bundle.
    expect(lazy.filter((name) => !bundle.includes(`import("${name}")`))).toEqual([]);
  });

  test('finds every package it leaves out from its own folder (a package installed only nested would not be found)', () => {
    // Node looks in dist/node_modules (none), then in the checkout's node_modules.
    expect(fs.existsSync(path.join(root, 'dist', 'node_modules'))).toBe(false);
    const missing = SERVICE_EXTERNAL_PACKAGES.filter((name) => !fs.existsSync(path.join(root, 'node_modules', name, 'package.json')));
    expect(missing).toEqual([]);
  });

  test('keeps every package the sources import with import() out, or the bundle would load it at start', async () => {
    const lazy = new Set<string>();
    for (const file of await glob('src/**/*.ts', { cwd: root, absolute: true })) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/\bimport\(\s*'([^'.][^']*)'\s*\)/g)) {
        const specifier = match[1]!;
        if (!specifier.startsWith('node:')) lazy.add(packageOf(specifier));
      }
    }
    expect(lazy.size).toBeGreaterThan(0);
    for (const name of lazy) expect(SERVICE_EXTERNAL_PACKAGES, name).toContain(name);
  });

  test('imports nothing but Node’s own modules statically (a package imported so would load at start)', () => {
    // esbuild writes `import{x as y}from"node:fs"` at the start of a statement.
    const statement = /(?:^|[;}])import\s*(?:[\w$*{}\s,]+?from\s*)?"([^"]+)"/gm;
    const staticImports = [...bundle.matchAll(statement)].map((match) => match[1]!);
    expect(staticImports.length).toBeGreaterThan(10);
    expect(staticImports.filter((specifier) => !isBuiltin(specifier))).toEqual([]);
  });

  test('holds zod’s English messages alone, not its 60-odd other languages (330 kB of source kept by V8)', () => {
    const locales = inputs.flatMap((input) => /node_modules\/zod\/v4\/locales\/(.+)$/.exec(input)?.[1] ?? []);
    expect(locales.sort()).toEqual(['en.js', 'index.js']);
    // zod's messages in English still reach an answer: a schema's error names what it expected.
    expect(bundle).toContain('Invalid input: expected');
  });

  test('is ASCII only, so V8 keeps its source at one byte a character', () => {
    expect((bundle.match(/[\u0080-\uffff]/g) ?? []).slice(0, 10)).toEqual([]);
  });
});
