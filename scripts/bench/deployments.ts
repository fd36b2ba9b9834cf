// The deployments the church profile is compared on: one or more service instances on a backend, behind nginx with one Redis when more than one.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { findExecutable } from '../lib/executables.ts';
import { startNginxUpstream } from '../lib/nginx-upstream.ts';
import { startRedisServer } from '../lib/redis-server.ts';
import { BACKENDS } from './backends.ts';
import { NGINX_KEEPALIVE_REQUESTS } from './closed-loop.ts';
import type { DeploymentScenario } from './scenarios.ts';
import { mintKey, type RunningService, startService } from './service.ts';

/** The tools found on this machine that a deployment may need (undefined: missing). */
export interface DeploymentTools {
  redisServer: string | undefined;
  nginx: string | undefined;
}

export interface RunningDeployment {
  /** Where requests go: the instance, or nginx in front of the instances. */
  url: string;
  /** The one instance's process (its CPU time per answer is reported); undefined behind nginx. */
  pid: number | undefined;
  /** A key minted through the CLI on the deployment's database. */
  key: string;
  /**
   * Its processes by role, for their CPU time per answer: `service` (every instance), and when there
   * are any, `database` (the server and its backends), `redis`, `proxy` (nginx).
   */
  processes(): Record<string, number[]>;
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  workDir: string;
  biblePublicDir: string;
  bibleDatabasePath: string;
  logLevel: string;
  /** The checkout whose service the instances run (bench --checkout); default this one. */
  checkout?: string;
}

/**
 * Why `scenario` cannot run with these tools (its backend's server, or redis-server and nginx for
 * several instances), or undefined when it can.
 *
 * @example whyNotDeployable({ …, backend: 'sqlite', instances: 2 }, { redisServer: undefined, nginx: '/usr/sbin/nginx' })
 *   // 'redis-server is not installed (apt-get install redis-server)'
 */
export function whyNotDeployable(scenario: DeploymentScenario, tools: DeploymentTools): string | undefined {
  const backend = BACKENDS.get(scenario.backend);
  if (!backend) return `no backend named "${scenario.backend}"`;
  const reasons = [backend.unavailable()];
  if (scenario.instances > 1) {
    if (!tools.redisServer) reasons.push('redis-server is not installed (apt-get install redis-server)');
    if (!tools.nginx) reasons.push('nginx is not installed (apt-get install nginx-light)');
  }
  const found = reasons.filter((reason) => reason !== undefined);
  return found.length === 0 ? undefined : found.join('; ');
}

/** redis-server and nginx where Debian and Homebrew put them, or on PATH. */
export function findDeploymentTools(): DeploymentTools {
  return {
    redisServer: findExecutable('redis-server', process.env, ['/usr/local/bin', '/opt/homebrew/bin']),
    nginx: findExecutable('nginx', process.env, ['/usr/sbin']),
  };
}

/**
 * Starts the deployment: the backend, then the instances one after the other (the first migrates
 * and loads the demo churches, the others find both done), sharing one fingerprint secret and, when
 * there are several, one Redis for the limits and an nginx upstream in front; then mints a key with
 * the CLI. Whatever started is stopped again when a later step fails.
 */
export async function startDeployment(
  scenario: DeploymentScenario,
  tools: DeploymentTools,
  options: DeploymentOptions,
): Promise<RunningDeployment> {
  const backend = BACKENDS.get(scenario.backend);
  if (!backend) throw new Error(`no backend named "${scenario.backend}"`);
  const started: { stop(): Promise<void> }[] = [];
  const stop = async () => {
    while (started.length > 0) await started.pop()!.stop();
  };
  try {
    const prepared = await backend.prepare(join(options.workDir, 'backend'));
    started.push({ stop: () => prepared.close() });
    // Every instance must fingerprint keys alike: one secret for all, as a deployment sets KEY_FINGERPRINT_SECRET.
    const shared: Record<string, string> = { ...prepared.env, KEY_FINGERPRINT_SECRET: randomBytes(32).toString('hex') };
    const roles: { redis?: number; proxy?: number } = {};
    if (scenario.instances > 1) {
      const redis = await startRedisServer(tools.redisServer!);
      started.push(redis);
      roles.redis = redis.pid;
      Object.assign(shared, { REDIS_URL: redis.url, TRUST_PROXY: 'loopback' });
    }
    const instances: RunningService[] = [];
    for (let index = 0; index < scenario.instances; index++) {
      const instance = await startService({
        workDir: join(options.workDir, `instance-${index + 1}`),
        name: `service ${index + 1} (${scenario.backend})`,
        backendEnv: { ...shared, DEMO_DATA: index === 0 ? 'true' : 'false' },
        biblePublicDir: options.biblePublicDir,
        bibleDatabasePath: options.bibleDatabasePath,
        logLevel: options.logLevel,
        checkout: options.checkout,
      });
      started.push(instance);
      instances.push(instance);
    }
    const key = await mintKey(instances[0].env);
    const processes = () => {
      const database = prepared.processes();
      return {
        service: instances.map((instance) => instance.pid),
        ...(database.length > 0 ? { database } : {}),
        ...(roles.redis === undefined ? {} : { redis: [roles.redis] }),
        ...(roles.proxy === undefined ? {} : { proxy: [roles.proxy] }),
      };
    };
    if (instances.length === 1) return { url: instances[0].url, pid: instances[0].pid, key, processes, stop };
    const nginx = await startNginxUpstream(
      tools.nginx!,
      instances.map((instance) => Number(new URL(instance.url).port)),
      { clientKeepaliveRequests: NGINX_KEEPALIVE_REQUESTS },
    );
    started.push(nginx);
    roles.proxy = nginx.pid;
    return { url: nginx.url, pid: undefined, key, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
