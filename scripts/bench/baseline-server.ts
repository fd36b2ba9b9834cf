// A ceiling for the church endpoints: a bare node:http server or a bare Express app answering fixed routes with fixed bytes.
// Usage (started by baselines.ts): node --import tsx scripts/bench/baseline-server.ts --kind node|express --port N --routes FILE
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import express from 'express';
import type { FixedRoute } from './baselines.ts';

const { values } = parseArgs({
  options: { kind: { type: 'string' }, port: { type: 'string' }, routes: { type: 'string' } },
  strict: true,
});
const stored = JSON.parse(readFileSync(values.routes!, 'utf8')) as FixedRoute[];
const routes = new Map(stored.map((route) => [route.path, { headers: route.headers, body: Buffer.from(route.body, 'base64') }]));

const server =
  values.kind === 'express'
    ? http.createServer(expressApp())
    : http.createServer((req, res) => {
        const route = routes.get(req.url ?? '');
        if (!route) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { ...route.headers, 'content-length': route.body.length });
        res.end(route.body);
      });
server.listen(Number(values.port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));

/** Express as an app is usually set up: its router, one handler per path, res.send with the same headers. */
function expressApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  for (const [path, route] of routes) {
    // Express routes on the path alone; a stored path may carry its query (the static chapter's ?lang=en).
    app.get(path.split('?')[0] as string, (_req, res) => {
      res.set(route.headers).send(route.body);
    });
  }
  return app;
}
