// Test helper: Cloudflare's local Pages runtime (wrangler pages dev: workerd and the Pages asset server) run inside a built folder, as a user would.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { requirement } from './requirements.ts';

/**
 * The newest compatibility date the pinned wrangler's runtime accepts (today's is refused offline).
 */
export const PAGES_COMPATIBILITY_DATE = '2026-05-01';

export interface PagesDev {
  /** The site's address ("http://127.0.0.1:port"). */
  url: string;
  /** What wrangler printed until now: the files it read, what it refused of them. */
  log(): string;
  stop(): void;
}

/**
 * Starts `wrangler pages dev .` inside `dir` (the folder is the whole site) and resolves once it is
 * ready; rejects with its output when it stops first. Needs the `wrangler` requirement.
 *
 * @example const pages = await startPagesDev(publicDir); await fetch(`${pages.url}/api/v1/bible/GEN/1`); pages.stop();
 */
export async function startPagesDev(dir: string): Promise<PagesDev> {
  const port = await freePort();
  let output = '';
  const child = spawn(
    requirement('wrangler').path!,
    ['pages', 'dev', '.', '--ip', '127.0.0.1', '--port', String(port), `--compatibility-date=${PAGES_COMPATIBILITY_DATE}`],
    { cwd: dir, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('Ready on')) {
        clearInterval(check);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(check);
        reject(new Error(`wrangler pages dev stopped:\n${output}`));
      }
    }, 100);
  });
  return { url: `http://127.0.0.1:${port}`, log: () => output, stop: () => child.kill('SIGTERM') };
}

/** What Pages prints of a `_redirects` or `_headers` it reads ("Found 3 invalid redirect rules", "Expected exactly 2 or 3 …"). */
export const PAGES_RULE_COMPLAINTS = /invalid (redirect|header) rule|Expected exactly|_redirects|_headers|invalid _routes/i;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
