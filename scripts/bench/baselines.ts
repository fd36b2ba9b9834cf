// The ceilings of the church endpoints: a bare node:http server and a bare Express app, each in its own process, sending the service's own bytes.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, type RunningServer, startServer } from './processes.ts';

/** One path and the bytes and headers the service answered it with. */
export interface FixedRoute {
  path: string;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

export type BaselineKind = 'node' | 'express';

/** Headers of the service's answer the baselines send too: the ones a client needs to read and cache it. */
const KEPT_HEADERS = ['content-type', 'cache-control', 'etag'];

/**
 * Fetches each path from the service with `headers` (the key) and keeps its 200 body and main
 * headers, so that the baselines answer byte for byte what the service does.
 */
export async function fetchFixedRoutes(baseUrl: string, paths: readonly string[], headers: Record<string, string>): Promise<FixedRoute[]> {
  const routes: FixedRoute[] = [];
  for (const path of paths) {
    const response = await fetch(`${baseUrl}${path}`, { headers });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body.toString('utf8').slice(0, 300)}`);
    const kept = Object.fromEntries(
      KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
    );
    routes.push({ path, headers: kept, body: body.toString('base64') });
  }
  return routes;
}

/** Starts a baseline of `kind` on a free port over `routes`, in a process of its own like the service's. */
export async function startBaseline(kind: BaselineKind, routes: readonly FixedRoute[], workDir: string): Promise<RunningServer> {
  const routesFile = join(workDir, 'baseline-routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  const port = await freePort();
  return startServer({
    name: kind === 'node' ? 'bare node:http' : 'bare Express',
    command: process.execPath,
    args: ['--import', 'tsx', 'scripts/bench/baseline-server.ts', '--kind', kind, '--port', String(port), '--routes', routesFile],
    port,
    readyPath: routes[0]!.path,
    stdoutFile: join(workDir, `baseline-${kind}.log`),
    stderrFile: join(workDir, `baseline-${kind}.err`),
  });
}
