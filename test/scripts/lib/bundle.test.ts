// A launcher's cached bundle is used again only when it is this checkout's own, made from the same inputs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { asciiOnly, cachedBundleEntry, loadEsbuild, root } from '../../../scripts/lib/bundle.mjs';

const ENTRY = 'test/scripts/lib/fixtures/throws-on-line-8.ts';

describe('cachedBundleEntry', () => {
  test('uses its bundle again, but makes a new one when the manifest names another checkout’s bundle (a copied dist/)', async () => {
    const outDir = fs.mkdtempSync(path.join(root, 'dist', 'test-cached-bundle-'));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'other-checkout-'));
    let loads = 0;
    const counting = () => {
      loads++;
      return loadEsbuild();
    };
    try {
      const options = { entry: ENTRY, outDir: path.relative(root, outDir) };
      const made = await cachedBundleEntry(counting, options);
      expect(await cachedBundleEntry(counting, options)).toBe(made);
      expect(loads).toBe(1);
      // What a checkout copied with cp -al finds: a manifest naming the other checkout's bundle, which is intact.
      const manifestFile = path.join(outDir, 'throws-on-line-8.inputs.json');
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      const otherBundle = path.join(elsewhere, 'throws-on-line-8.mjs');
      fs.copyFileSync(made, otherBundle);
      fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, moduleFile: otherBundle }));
      expect(await cachedBundleEntry(counting, options)).toBe(made);
      expect(loads).toBe(2);
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('asciiOnly', () => {
  test('escapes every character past ASCII, and the code means the same in strings, cooked templates and patterns', () => {
    const tag = '(strings, ...values) => strings.join("|") + values.join("|")';
    const code = `[/[’–]+/u.test("a’–b"), /😀/u.test("x😀"), (${tag})\`· \${"…"} “q”\`, "João 😀"]`;
    const escaped = asciiOnly(code);
    expect(escaped).toMatch(/^[\x20-\x7e]*$/);
    expect(escaped).toContain('\\ud83d\\ude00');
    expect(new Function(`return ${escaped}`)()).toEqual(new Function(`return ${code}`)());
    expect(new Function(`return ${escaped}`)()).toEqual([true, true, '· | “q”…', 'João 😀']);
  });
});
