// Dependencies point one way: the import graph of build/, src/ and scripts/ keeps to these rules and has no cycle.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AllowedEdge, type DependencyRule, importCycles, importGraph, missingTargets, ruleViolations } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const within = (path: string, folder: string) => path.startsWith(folder);

/** The service's domains: each stands on the floors below it (db/, http/), never the other way. */
const DOMAINS = ['src/church/', 'src/portal/', 'src/accounts/', 'src/keys/', 'src/bible/'];

/**
 * build/contract/ is the Bible's published format, which the build writes and the service reads;
 * it is the only part of build/ the service may use, and it stands on its own.
 */
const RULES: readonly DependencyRule[] = [
  {
    name: 'build/ does not import the service',
    forbids: (from, to) => within(from, 'build/') && within(to, 'src/'),
  },
  {
    name: 'the service imports nothing of build/ but build/contract/',
    forbids: (from, to) => within(from, 'src/') && within(to, 'build/') && !within(to, 'build/contract/'),
  },
  {
    name: 'build/contract/ imports only itself and data/*.json',
    forbids: (from, to) =>
      within(from, 'build/contract/') && !within(to, 'build/contract/') && !(within(to, 'data/') && to.endsWith('.json')),
  },
  {
    name: 'the USFM reader does not use the SWORD reader',
    forbids: (from, to) => within(from, 'build/usfm/') && within(to, 'build/sword/'),
  },
  {
    name: 'the SWORD reader does not use the USFM reader',
    forbids: (from, to) => within(from, 'build/sword/') && within(to, 'build/usfm/'),
  },
  {
    name: 'db/ imports no domain (church, portal, accounts, keys, bible)',
    forbids: (from, to) => within(from, 'src/db/') && DOMAINS.some((domain) => within(to, domain)),
  },
  {
    name: 'http/ imports nothing from db/ (an error of db/ carries its own problem)',
    forbids: (from, to) => within(from, 'src/http/') && within(to, 'src/db/'),
  },
  {
    name: 'keys/ imports nothing from limits/',
    forbids: (from, to) => within(from, 'src/keys/') && within(to, 'src/limits/'),
  },
  {
    name: 'only the composition root (app.ts, services.ts) imports app-services.ts: a part declares what it takes',
    forbids: (from, to) => to === 'src/app-services.ts' && from !== 'src/app.ts' && from !== 'src/services.ts',
  },
  {
    name: 'scripts/ are entry points that nothing imports',
    forbids: (from, to) => !within(from, 'scripts/') && within(to, 'scripts/'),
  },
];

/** Known edges the rules would refuse, each with the work that removes it. */
const ALLOWED: readonly AllowedEdge[] = [
  {
    from: 'src/bible/routes.ts',
    to: 'src/app-services.ts',
    reason: 'the Express Bible router goes when the endpoint tables and their dispatcher answer the Bible (issue 23)',
  },
  {
    from: 'src/health/routes.ts',
    to: 'src/app-services.ts',
    reason: 'the Express health router goes when the endpoint tables and their dispatcher answer the probes (issue 23)',
  },
];

describe('the import graph of build/, src/ and scripts/', () => {
  const graph = importGraph(ROOT, ['build', 'src', 'scripts']);

  it('is read from every source file, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(60);
    expect(graph.get('src/bible/routes.ts')).toContain('src/bible/params.ts');
    // `import type` counts: a type-only import still ties the importer to the file.
    expect(graph.get('src/bible/queries.ts')?.some((target) => target.startsWith('build/'))).toBe(true);
  });

  it('points every import at a file that exists', () => {
    expect(missingTargets(ROOT, graph)).toEqual([]);
  });

  it('keeps to the direction rules', () => {
    expect(ruleViolations(graph, RULES, ALLOWED)).toEqual([]);
  });

  it('allows no exception that the code no longer needs', () => {
    const unused = ALLOWED.filter((edge) => !graph.get(edge.from)?.includes(edge.to));
    expect(unused.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles = importCycles(graph).map(({ files, path }) => `${path.join(' → ')} (a ring of ${files.length}: ${files.join(', ')})`);
    expect(cycles).toEqual([]);
  });
});

describe('the dependency check itself', () => {
  const graph = new Map([
    ['src/app.ts', ['src/bible/routes.ts']],
    ['src/bible/routes.ts', ['src/app.ts', 'build/writers/static-tree.ts']],
    ['build/writers/static-tree.ts', ['build/contract/layout.ts']],
    ['build/contract/layout.ts', ['build/books.ts', 'data/books.json']],
    ['build/usfm/read-usfm.ts', ['build/sword/versification.ts']],
    ['build/sword/versification.ts', []],
    ['build/books.ts', []],
    ['src/db/open.ts', ['src/church/records.ts', 'src/http/logger.ts']],
    ['src/keys/auth.ts', ['src/limits/invalid-key-throttle.ts', 'src/keys/format.ts']],
    ['src/http/errors.ts', ['src/db/storage-unavailable.ts', 'src/http/problem.ts']],
    ['src/church/answers.ts', ['src/app-services.ts']],
    ['src/app-services.ts', []],
  ]);

  it('names each edge that breaks a rule, with the rule', () => {
    expect(ruleViolations(graph, RULES)).toEqual([
      'the service imports nothing of build/ but build/contract/: src/bible/routes.ts → build/writers/static-tree.ts',
      'build/contract/ imports only itself and data/*.json: build/contract/layout.ts → build/books.ts',
      'the USFM reader does not use the SWORD reader: build/usfm/read-usfm.ts → build/sword/versification.ts',
      'db/ imports no domain (church, portal, accounts, keys, bible): src/db/open.ts → src/church/records.ts',
      'keys/ imports nothing from limits/: src/keys/auth.ts → src/limits/invalid-key-throttle.ts',
      'http/ imports nothing from db/ (an error of db/ carries its own problem): src/http/errors.ts → src/db/storage-unavailable.ts',
      'only the composition root (app.ts, services.ts) imports app-services.ts: a part declares what it takes: src/church/answers.ts → src/app-services.ts',
    ]);
  });

  it('reports a cycle as the closed path of its files', () => {
    expect(importCycles(graph)).toEqual([
      { files: ['src/app.ts', 'src/bible/routes.ts'], path: ['src/app.ts', 'src/bible/routes.ts', 'src/app.ts'] },
    ]);
  });

  it('finds every cycle, a file importing itself included', () => {
    const cycles = importCycles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['c.ts']],
        ['c.ts', ['a.ts', 'd.ts']],
        ['d.ts', ['d.ts']],
      ]),
    );
    expect(cycles.map((cycle) => cycle.path)).toEqual(
      expect.arrayContaining([
        ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
        ['d.ts', 'd.ts'],
      ]),
    );
    expect(cycles).toHaveLength(2);
  });
});
