// The goals `npm run bench` prints: every figure of issue 28's table, and a p99 at an offered rate for every dynamic endpoint family.
import { describe, expect, it } from 'vitest';
import {
  CHURCH_PROFILE_PATH,
  DEPLOYMENT_SCENARIOS,
  floorRates,
  GOALS,
  LATENCY_SCENARIOS,
  latencyFloorScenario,
  THROUGHPUT_SCENARIOS,
  throughputGroups,
} from '../../../scripts/bench/scenarios.ts';

const goalOf = (id: string, baseline: string) =>
  THROUGHPUT_SCENARIOS.find((scenario) => scenario.id === id)?.compare?.find((comparison) => comparison.baseline === baseline)?.goal;
const p99Of = (id: string) => LATENCY_SCENARIOS.find((scenario) => scenario.id === id);

describe("issue 28's goals", () => {
  it('puts the service against its ceilings: church profile and events at half of bare node:http, the static chapter at 90% of nginx', () => {
    expect(goalOf('church-profile.service', 'church-profile.node')).toEqual({ on: 'ratio', op: '>=', limit: 0.5 });
    expect(goalOf('church-events.service', 'church-events.node')).toEqual({ on: 'ratio', op: '>=', limit: 0.5 });
    expect(goalOf('static-chapter.service', 'static-chapter.nginx')).toEqual({ on: 'ratio', op: '>=', limit: 0.9 });
  });

  it('bounds the p99 of search at 200 and 800 req/s and of ranges at 500 and 2,000 req/s', () => {
    expect([p99Of('search@200'), p99Of('search@800'), p99Of('range@500'), p99Of('range@2000')].map((s) => [s?.rate, s?.p99GoalMs])).toEqual(
      [
        [200, 2.5],
        [800, 5],
        [500, 1],
        [2000, 2],
      ],
    );
  });

  it('measures one PostgreSQL instance against 60% of one SQLite instance', () => {
    const [sqlite, postgres] = DEPLOYMENT_SCENARIOS;
    expect([sqlite.backend, sqlite.instances, sqlite.goal]).toEqual(['sqlite', 1, undefined]);
    expect([postgres.backend, postgres.instances, postgres.goal]).toEqual(['postgres', 1, { on: 'ratio', op: '>=', limit: 0.6 }]);
  });

  it('holds the build to 6 s and 300 MB and the service to 150 MB', () => {
    expect(GOALS).toMatchObject({ buildSeconds: 6, buildRssMb: 300, serviceRssMb: 150 });
  });

  it('has a p99 at an offered rate for parallel, references, verse of the day, the calendar, JSON-LD and an MCP tool call', () => {
    for (const id of [
      'parallel@200',
      'references@200',
      'verse-of-the-day@500',
      'church-events-calendar@500',
      'church-profile-json-ld@500',
      'mcp-passage@200',
    ]) {
      expect(p99Of(id), id).toBeDefined();
    }
    expect(p99Of('church-events-calendar@500')).toMatchObject({ keyed: true, headers: { accept: 'text/calendar' } });
  });
});

describe('latency floors', () => {
  it('measures a floor at each rate that has a p99 goal, once, and none at a rate without one', () => {
    expect(floorRates(LATENCY_SCENARIOS)).toEqual([200, 800, 500, 2000]);
    expect(floorRates(LATENCY_SCENARIOS.filter((scenario) => scenario.id.startsWith('church-')))).toEqual([]);
  });

  it('puts the floor on bare node:http with the church profile, at the rate asked', () => {
    const floor = latencyFloorScenario(500);
    expect(floor).toMatchObject({ id: 'floor@500', target: 'node', rate: 500, keyed: true });
    expect(floor.paths({ searches: [], ranges: [], parallels: [], referenceTexts: [], days: [] })).toEqual([CHURCH_PROFILE_PATH]);
  });
});

describe('the throughput groups measured in turns', () => {
  it('puts each compared service with its ceilings, baselines first, and measures the rest alone', () => {
    expect(throughputGroups(THROUGHPUT_SCENARIOS).map((group) => group.map((scenario) => scenario.id))).toEqual([
      ['static-chapter.nginx', 'static-chapter.node', 'static-chapter.service'],
      ['church-profile.node', 'church-profile.express', 'church-profile.service'],
      ['church-events.node', 'church-events.express', 'church-events.service'],
      ['range.service'],
      ['search.service'],
    ]);
  });

  it('measures a baseline two services share once, in one group with both', () => {
    const base = THROUGHPUT_SCENARIOS.find((scenario) => scenario.id === 'static-chapter.nginx')!;
    const scenarios = [
      { ...base, id: 'a', compare: undefined },
      { ...base, id: 'b', compare: undefined },
      { ...base, id: 'x.service', compare: [{ baseline: 'a' }] },
      { ...base, id: 'lone', compare: undefined },
      { ...base, id: 'y.service', compare: [{ baseline: 'b' }, { baseline: 'a' }] },
    ];
    expect(throughputGroups(scenarios).map((group) => group.map((scenario) => scenario.id))).toEqual([
      ['a', 'b', 'x.service', 'y.service'],
      ['lone'],
    ]);
  });

  it('keeps a chosen subset in groups: a service without its ceilings is measured alone', () => {
    const chosen = THROUGHPUT_SCENARIOS.filter((scenario) =>
      ['church-events.service', 'static-chapter.nginx', 'static-chapter.service'].includes(scenario.id),
    );
    expect(throughputGroups(chosen).map((group) => group.map((scenario) => scenario.id))).toEqual([
      ['static-chapter.nginx', 'static-chapter.service'],
      ['church-events.service'],
    ]);
  });
});
