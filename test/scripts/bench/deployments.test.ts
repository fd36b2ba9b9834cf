// The deployment comparison: its rows side by side with the one-SQLite figure as baseline, and why a deployment is skipped.
import { describe, expect, it } from 'vitest';
import type { ClosedLoopResult } from '../../../scripts/bench/closed-loop.ts';
import { whyNotDeployable } from '../../../scripts/bench/deployments.ts';
import { deploymentFigures } from '../../../scripts/bench/figures.ts';
import { reported, tableRow } from '../../../scripts/bench/report.ts';
import { DEPLOYMENT_SCENARIOS, type DeploymentScenario } from '../../../scripts/bench/scenarios.ts';

const measured = (requestsPerSecond: number, cpuUsPerRequestByRole?: Record<string, number>): ClosedLoopResult => ({
  requestsPerSecond,
  cpuUsPerRequestByRole,
  latencyMs: { p50: 1, p99: 3, max: 9 },
  non2xx: 0,
  errors: 0,
  statusCodes: { '200': requestsPerSecond },
});

const [sqliteOne, postgresOne, postgresTwo] = DEPLOYMENT_SCENARIOS;

describe('the deployments compared', () => {
  it('are one instance on SQLite first, then one on PostgreSQL, then two on PostgreSQL', () => {
    expect(DEPLOYMENT_SCENARIOS.map(({ backend, instances }) => ({ backend, instances }))).toEqual([
      { backend: 'sqlite', instances: 1 },
      { backend: 'postgres', instances: 1 },
      { backend: 'postgres', instances: 2 },
    ]);
  });
});

describe('deploymentFigures', () => {
  it('gives one row each, the others compared with one instance on SQLite', () => {
    const rows = deploymentFigures(
      DEPLOYMENT_SCENARIOS,
      new Map([
        [sqliteOne.id, measured(2000)],
        [postgresOne.id, measured(1500)],
        [postgresTwo.id, measured(2600)],
      ]),
    ).map(reported);
    expect(rows.map((row) => [row.id, row.value, row.baseline?.value, row.ratio])).toEqual([
      [sqliteOne.id, 2000, undefined, undefined],
      [postgresOne.id, 1500, 2000, 0.75],
      [postgresTwo.id, 2600, 2000, 1.3],
    ]);
    expect(rows[2].details).toMatchObject({ backend: 'postgres', instances: 2, requestsPerSecond: 2600 });
    expect(tableRow(rows[2])).toBe(`| ${postgresTwo.label}, throughput | 2,600 req/s | ${sqliteOne.label}: 2,000 req/s | 1.30 |  |  |`);
  });

  it('judges one instance on PostgreSQL against 60% of one on SQLite', () => {
    const judged = (postgres: number) =>
      deploymentFigures(
        DEPLOYMENT_SCENARIOS,
        new Map([
          [sqliteOne.id, measured(2000)],
          [postgresOne.id, measured(postgres)],
        ]),
      )
        .map(reported)
        .find((row) => row.id === postgresOne.id)!;
    expect(judged(1200)).toMatchObject({ ratio: 0.6, met: true, goal: { on: 'ratio', op: '>=', limit: 0.6 } });
    expect(judged(1100).met).toBe(false);
    expect(tableRow(judged(1100))).toContain('| ≥ 60% of Church profile, one instance on SQLite | **no** |');
  });

  it("adds the CPU time per answer of each deployment's processes, the service's compared with one SQLite instance's", () => {
    const rows = deploymentFigures(
      DEPLOYMENT_SCENARIOS,
      new Map([
        [sqliteOne.id, measured(2000, { service: 100 })],
        [postgresOne.id, measured(1500, { service: 150, database: 60 })],
        [postgresTwo.id, measured(2600, { service: 170, database: 65, redis: 12, proxy: 40 })],
      ]),
    ).map(reported);
    expect(rows.map((row) => [row.id, row.value, row.unit, row.ratio])).toEqual([
      [sqliteOne.id, 2000, 'req/s', undefined],
      [`${sqliteOne.id}.cpu-per-request.service`, 100, 'µs', undefined],
      [postgresOne.id, 1500, 'req/s', 0.75],
      [`${postgresOne.id}.cpu-per-request.service`, 150, 'µs', 1.5],
      [`${postgresOne.id}.cpu-per-request.database`, 60, 'µs', undefined],
      [postgresTwo.id, 2600, 'req/s', 1.3],
      [`${postgresTwo.id}.cpu-per-request.service`, 170, 'µs', 1.7],
      [`${postgresTwo.id}.cpu-per-request.database`, 65, 'µs', undefined],
      [`${postgresTwo.id}.cpu-per-request.redis`, 12, 'µs', undefined],
      [`${postgresTwo.id}.cpu-per-request.proxy`, 40, 'µs', undefined],
    ]);
    expect(rows.find((row) => row.id === `${postgresOne.id}.cpu-per-request.database`)?.label).toBe(
      `${postgresOne.label}: CPU of the PostgreSQL server (its backends) per answer`,
    );
    expect(tableRow(rows[3])).toBe(
      `| ${postgresOne.label}: CPU of the service per answer | 150 µs | ${sqliteOne.label}: 100 µs | 1.50 |  |  |`,
    );
    expect(rows[6].label).toBe(`${postgresTwo.label}: CPU of the 2 service instances together per answer`);
  });

  it('leaves out what was not measured, and lets the others stand alone without the SQLite figure', () => {
    const rows = deploymentFigures(DEPLOYMENT_SCENARIOS, new Map([[postgresTwo.id, measured(2600)]]));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: postgresTwo.id, value: 2600, baseline: undefined });
  });
});

describe('whyNotDeployable', () => {
  const tools = { redisServer: '/usr/bin/redis-server', nginx: '/usr/sbin/nginx' };
  const sqliteTwo: DeploymentScenario = { id: 'x', label: 'x', backend: 'sqlite', instances: 2 };

  it('needs nothing for one SQLite instance', () => {
    expect(whyNotDeployable(sqliteOne, { redisServer: undefined, nginx: undefined })).toBeUndefined();
  });

  it('needs redis-server and nginx for several instances, naming each one missing', () => {
    expect(whyNotDeployable(sqliteTwo, tools)).toBeUndefined();
    expect(whyNotDeployable(sqliteTwo, { ...tools, redisServer: undefined })).toMatch(/^redis-server is not installed/);
    const both = whyNotDeployable(sqliteTwo, { redisServer: undefined, nginx: undefined });
    expect(both).toContain('redis-server is not installed');
    expect(both).toContain('nginx is not installed');
  });

  it('refuses a backend that does not exist', () => {
    expect(whyNotDeployable({ ...sqliteOne, backend: 'oracle' }, tools)).toBe('no backend named "oracle"');
  });
});
