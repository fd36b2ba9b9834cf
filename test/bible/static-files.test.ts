// The in-memory static tree: which stored encoding an Accept-Encoding header gets, and a cache bounded in files and bytes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staticPaths } from '../../build/contract/layout.ts';
import { buildStamp } from '../../build/contract/stamp.ts';
import { createStaticFiles } from '../../src/bible/static-files.ts';
import { type ContentCoding, negotiate, type Representation, type StoredFile } from '../../src/http/representations.ts';

const representation = (coding: ContentCoding): Representation => ({
  coding,
  bytes: Buffer.from(coding),
  etag: `"${coding}"`,
  okHeaders: [],
  notModifiedHeaders: [],
});
const allThree: StoredFile = {
  kind: 'stored',
  identity: representation('identity'),
  br: representation('br'),
  gzip: representation('gzip'),
};
const gzipOnly: StoredFile = { kind: 'stored', identity: representation('identity'), gzip: representation('gzip') };

describe('Accept-Encoding negotiation over the stored encodings', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['br, gzip', 'br'],
    ['*', 'br'],
    ['gzip', 'gzip'],
    ['gzip, br;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['x-gzip;q=0, *;q=0.5', 'br'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['gzip;q=0.5, identity', 'identity'],
    ['identity;q=0.5, gzip;q=0.5', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['br;q=0, gzip;q=0', 'identity'],
    // Nothing acceptable: identity rather than 406.
    ['identity;q=0', 'identity'],
    ['*;q=0', 'identity'],
    ['BR', 'br'],
  ])('%j gets %s', (header, coding) => {
    expect(negotiate(allThree, header).coding).toBe(coding);
  });

  it('only offers what is stored: gzip for "br, gzip" when there is no .br file, identity when neither', () => {
    expect(negotiate(gzipOnly, 'br, gzip').coding).toBe('gzip');
    expect(negotiate(gzipOnly, 'br').coding).toBe('identity');
    expect(negotiate({ identity: representation('identity') }, 'br, gzip').coding).toBe('identity');
  });
});

describe('the file cache', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A tree of build "b1" holding `files` (name → content). */
  function tree(files: Record<string, string>): void {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-files-'));
    const stamp = path.join(dir, ...staticPaths.stamp.split('/'));
    fs.mkdirSync(path.dirname(stamp), { recursive: true });
    fs.writeFileSync(stamp, JSON.stringify(buildStamp('b1', [])));
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  }

  const removeFiles = (...names: string[]) => {
    for (const name of names) fs.rmSync(path.join(dir, name));
  };
  const options = { buildHash: 'b1', onStale: () => {} };

  it('holds at most `capacity` files and lets go of the least recently used', () => {
    tree({ 'a.json': '"a"', 'b.json': '"b"', 'c.json': '"c"' });
    const files = createStaticFiles(dir, { ...options, capacity: 2 });
    files.get('a.json');
    files.get('b.json');
    files.get('a.json');
    files.get('c.json');
    removeFiles('a.json', 'b.json', 'c.json');
    expect(files.get('a.json')?.identity.bytes.toString()).toBe('"a"');
    expect(files.get('c.json')?.identity.bytes.toString()).toBe('"c"');
    expect(files.get('b.json')).toBeUndefined();
  });

  it('holds every verse-of-the-day file of every language at once by default, so days across the year are not read again', () => {
    const days = Array.from({ length: 366 * 5 }, (_, index) => `votd-${index}.json`);
    tree(Object.fromEntries(days.map((name) => [name, JSON.stringify({ day: name, text: 'x'.repeat(200) })])));
    const files = createStaticFiles(dir, options);
    for (const name of days) files.get(name);
    removeFiles(...days);
    expect(days.filter((name) => files.get(name) === undefined)).toEqual([]);
  });

  it('holds at most `maxBytes` over every stored encoding, so a file above it is read each time', () => {
    tree({ 'small.json': '"s"', 'big.json': JSON.stringify('x'.repeat(2000)), 'big.json.gz': 'y'.repeat(2000) });
    const files = createStaticFiles(dir, { ...options, maxBytes: 3000 });
    expect(files.get('small.json')).toBeDefined();
    expect(files.get('big.json')?.gzip).toBeDefined();
    removeFiles('small.json', 'big.json', 'big.json.gz');
    expect(files.get('small.json')).toBeDefined();
    expect(files.get('big.json')).toBeUndefined();
  });
});
