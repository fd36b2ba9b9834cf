// The profile summary: self time per function and per area (our folders, packages, Node's modules, GC), native code charged to its caller's area.
import { describe, expect, it } from 'vitest';
import { areaOf, type CpuProfile, summarise } from '../../../scripts/bench/profile-summary.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });

/** root → dispatcher → key lookup → (native) get; root → GC; root → idle. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
    { id: 2, callFrame: frame('dispatch', 'file:///app/src/http/dispatcher.ts', 9), children: [3] },
    { id: 3, callFrame: frame('activeKeyByFingerprint', 'file:///app/src/accounts/sqlite-repository.ts', 136), children: [4] },
    { id: 4, callFrame: frame('get') },
    { id: 5, callFrame: frame('(garbage collector)') },
    { id: 6, callFrame: frame('(idle)') },
  ],
  samples: [2, 3, 4, 4, 5, 6],
  timeDeltas: [10, 20, 30, 30, 5, 1000],
};

describe('the profile summary', () => {
  it('sums self time per function and per area, leaves idle out of the busy time, and charges native code to its caller', () => {
    const summary = summarise(profile);
    expect(summary.busyUs).toBe(95);
    expect(summary.idleUs).toBe(1000);
    expect(summary.functions[0]).toEqual({ name: 'get (native, called from src/accounts/)', us: 60 });
    expect(summary.functions).toContainEqual({ name: 'activeKeyByFingerprint src/accounts/sqlite-repository.ts:137', us: 20 });
    expect(summary.areas).toEqual([
      { name: 'native, called from src/accounts/', us: 60 },
      { name: 'src/accounts/', us: 20 },
      { name: 'src/http/', us: 10 },
      { name: 'GC', us: 5 },
    ]);
  });

  it('names areas by folder of src/, package and Node module', () => {
    expect(areaOf('../../src/church/sqlite/public-church-cache.ts', 'get')).toBe('src/church/');
    expect(areaOf('../../src/server.ts', 'main')).toBe('src/server.ts');
    expect(areaOf('file:///app/node_modules/@pinojs/redact/index.js', 'x')).toBe('package: @pinojs/redact');
    expect(areaOf('node:_http_outgoing', 'end')).toBe('node: http');
    expect(areaOf('node:internal/streams/writable', 'write')).toBe('node: streams');
  });
});
