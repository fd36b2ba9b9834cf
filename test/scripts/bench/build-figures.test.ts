// The build's figures read from bench-bible's output: the median and peak the goals are on, each run's CPU split, the machine's speed.
import { describe, expect, it } from 'vitest';
import { buildFigures } from '../../../scripts/bench/build-figures.ts';

// Lines as scripts/bench-bible.ts prints them (from a run of 2026-11-28).
const OUTPUT = [
  '    full build, run 1 of 3: 6.8 s wall — goal ≤ 6 s NOT met; peak 267 MB resident over the process tree — goal ≤ 300 MB met; CPU 8.8 s user + 3.1 s system',
  '    full build, run 2 of 3: 7.3 s wall — goal ≤ 6 s NOT met; peak 261 MB resident over the process tree — goal ≤ 300 MB met; CPU 8.9 s user + 3.6 s system',
  '    full build, run 3 of 3: 5.8 s wall — goal ≤ 6 s met; peak 266 MB resident over the process tree — goal ≤ 300 MB met; CPU 9.3 s user + 1.9 s system',
  '(a) full build: 6.8 s wall — goal ≤ 6 s NOT met; peak 267 MB resident over the process tree — goal ≤ 300 MB met; CPU 8.8 s user + 3.1 s system (median wall time of 3 runs, highest peak)',
  'Bible build c44f0bd33b16 is up to date (checked in 0.1 s); --force rebuilds.',
  '(b) rebuild, nothing changed: 0.4 s wall — goal ≤ 6 s met; peak 72 MB resident over the process tree — goal ≤ 300 MB met; CPU 0.3 s user + 0.1 s system',
  '    machine speed: a fixed JavaScript workload took 1074 ms before the builds and 1383 ms after (lower is faster; …).',
].join('\n');

describe('buildFigures', () => {
  it('reads the median and the peak from the (a) line, and each forced build in run order (not the rebuild)', () => {
    const figures = buildFigures(OUTPUT)!;
    expect([figures.seconds, figures.peakMb]).toEqual([6.8, 267]);
    expect(figures.runs).toEqual([
      { seconds: 6.8, peakMb: 267, userSeconds: 8.8, systemSeconds: 3.1 },
      { seconds: 7.3, peakMb: 261, userSeconds: 8.9, systemSeconds: 3.6 },
      { seconds: 5.8, peakMb: 266, userSeconds: 9.3, systemSeconds: 1.9 },
    ]);
    expect(figures.fixedWorkloadMs).toEqual({ before: 1074, after: 1383 });
  });

  it('has no figures without the (a) line, and no workload figure where the line is missing', () => {
    expect(buildFigures('bench-bible failed')).toBeUndefined();
    const withoutSpeed = buildFigures(OUTPUT.split('\n').slice(0, 4).join('\n'))!;
    expect(withoutSpeed.fixedWorkloadMs).toBeUndefined();
    expect(withoutSpeed.runs).toHaveLength(3);
  });
});
