// requirement(): what is missing, and whether its REQUIRE_* variable makes that a failure rather than a skip.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requirement } from './requirements.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'requirements-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('requirement', () => {
  it('finds BIBLE_SOURCES_DIR only when it names a folder', () => {
    expect(requirement('BIBLE_SOURCES_DIR', { BIBLE_SOURCES_DIR: dir })).toMatchObject({ path: dir, missing: undefined, required: false });
    for (const value of [undefined, '', '  ', path.join(dir, 'nowhere')]) {
      const found = requirement('BIBLE_SOURCES_DIR', { BIBLE_SOURCES_DIR: value });
      expect(found.path, String(value)).toBeUndefined();
      expect(found.missing).toMatch(/^BIBLE_SOURCES_DIR is not a folder/);
    }
  });

  it('is required when its REQUIRE_* variable is 1, and names that variable', () => {
    expect(requirement('BIBLE_SOURCES_DIR', { REQUIRE_FULL_CORPUS: '1' })).toMatchObject({
      required: true,
      requiredBy: 'REQUIRE_FULL_CORPUS',
    });
    expect(requirement('mod2imp', {}).requiredBy).toBe('REQUIRE_FULL_CORPUS');
    expect(requirement('redis-server', { REQUIRE_REDIS: '1' })).toMatchObject({ required: true, requiredBy: 'REQUIRE_REDIS' });
    expect(requirement('nginx', { REQUIRE_NGINX: '1' })).toMatchObject({ required: true, requiredBy: 'REQUIRE_NGINX' });
    expect(requirement('chromium', { REQUIRE_BROWSER: '0' })).toMatchObject({ required: false, requiredBy: 'REQUIRE_BROWSER' });
    expect(requirement('postgres', { REQUIRE_POSTGRES: '1' })).toMatchObject({ required: true, requiredBy: 'REQUIRE_POSTGRES' });
  });

  it('finds initdb only with a pg_ctl beside it, following links into the installation', () => {
    const install = path.join(dir, 'pg', 'bin');
    const links = path.join(dir, 'pg-links');
    fs.mkdirSync(install, { recursive: true });
    fs.mkdirSync(links);
    fs.writeFileSync(path.join(install, 'initdb'), '#!/bin/sh\n', { mode: 0o755 });
    fs.symlinkSync(path.join(install, 'initdb'), path.join(links, 'initdb'));
    const withoutPgCtl = requirement('postgres', { PATH: links });
    expect(withoutPgCtl.path).not.toBe(path.join(install, 'initdb'));
    fs.writeFileSync(path.join(install, 'pg_ctl'), '#!/bin/sh\n', { mode: 0o755 });
    expect(requirement('postgres', { PATH: links }).path).toBe(path.join(install, 'initdb'));
  });

  it('finds a tool on PATH when it is an executable file, and says how to install one that is missing', () => {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'mod2imp'), '#!/bin/sh\n', { mode: 0o755 });
    expect(requirement('mod2imp', { PATH: bin }).path).toBe(path.join(bin, 'mod2imp'));
    const found = requirement('mod2imp', { PATH: path.join(dir, 'empty') });
    // The system folders are looked in too: a machine with libsword-utils finds it there.
    if (found.path === undefined) expect(found.missing).toBe('mod2imp is not installed (apt-get install libsword-utils)');
    else expect(found.path).toMatch(/^\/usr\/s?bin\/mod2imp$/);
  });
});
