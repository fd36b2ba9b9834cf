// Builds the Bible artifacts (static tree, search indexes, database, host rewrites) from the pinned sources.
// Usage: npm run build:bible -- [--sources DIR] [--out public] [--db var/bible.sqlite] [--origin URL] [--public-url URL] [--host all] [--force]
//   --sources DIR  the pinned source files (else BIBLE_SOURCES_DIR, else data/sources/)
//   --out DIR      the public folder (default public)
//   --db PATH      the database (default var/bible.sqlite)
//   --report PATH  the JSON report (default var/bible-report.json)
//   --origin URL   the service that _redirects, _worker.js and vercel.json send ranges and search to (default a placeholder)
//   --public-url URL  the service's public address, base of the problem type URIs in the error files
//                  (else PUBLIC_BASE_URL, as the service reads it, else http://127.0.0.1:3000)
//   --host HOST    all (default: the folder the service and nginx serve, every host's files, .br/.gz copies),
//                  or the one host the folder is uploaded to: nginx, netlify (_redirects, _headers, no copies),
//                  pages (Cloudflare Pages: _worker.js and _routes.json, no copies), vercel (vercel.json, no copies)
//   --force        rebuild even when the output is up to date
import { parsePublicBaseUrl } from '../build/contract/http-policy.ts';
import { buildBible } from '../build/pipeline.ts';
import { resolveSourcesDir } from '../build/sources.ts';
import { parseHostTarget } from '../build/writers/host-rewrites.ts';
import { parseCommandLine } from './command-line.ts';
import { colored } from './lib/colors.ts';

const options = parseCommandLine('scripts/build-bible.ts', {
  sources: { type: 'string' },
  out: { type: 'string' },
  db: { type: 'string' },
  report: { type: 'string' },
  origin: { type: 'string' },
  'public-url': { type: 'string' },
  host: { type: 'string', default: 'all' },
  force: { type: 'boolean', default: false },
});
const host = hostOption();
const started = performance.now();
const interactive = Boolean(process.stdout.isTTY) && !process.env.CI;
try {
  const result = await buildBible({
    sourcesDir: resolveSourcesDir(options.sources, process.env),
    publicDir: options.out,
    databasePath: options.db,
    reportPath: options.report,
    origin: options.origin,
    publicUrl: publicUrlOption(),
    host,
    force: options.force,
    onProgress: interactive
      ? (step) => process.stdout.write(`\r\x1b[K${colored('dim', `${((performance.now() - started) / 1000).toFixed(1)}s`)} ${step}…`)
      : undefined,
  });
  if (interactive) process.stdout.write('\r\x1b[K');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status === 'up-to-date') {
    console.log(
      colored('green', `Bible build ${result.buildHash.slice(0, 12)} is up to date (checked in ${seconds} s); --force rebuilds.`),
    );
  } else {
    console.log(result.summary);
    console.log(colored('green', `Bible built in ${seconds} s`));
  }
  for (const warning of result.warnings) console.error(colored('yellow', `Warning: ${warning}`, process.stderr));
} catch (error) {
  if (interactive) process.stdout.write('\n');
  // Source errors already say what went wrong and what to do; other errors keep their stack.
  const known = error instanceof Error && /Source|Manifest|VersificationMapping|VerseMap|VerseOfTheDay/.test(error.name);
  console.error(colored('red', known ? (error as Error).message : ((error as Error).stack ?? String(error)), process.stderr));
  process.exitCode = 1;
}

/** --host, checked: one of the targets host-rewrites.ts writes files for; a wrong one ends the script with one line, as parseCommandLine does. */
function hostOption() {
  try {
    return parseHostTarget(options.host);
  } catch (error) {
    console.error(
      colored('red', `--host ${(error as Error).message} (see the usage at the top of scripts/build-bible.ts)`, process.stderr),
    );
    process.exit(1);
  }
}

/** --public-url, else the service's own PUBLIC_BASE_URL; checked as the service checks it. */
function publicUrlOption(): string | undefined {
  const fromFlag = options['public-url'] !== undefined;
  const name = fromFlag ? '--public-url' : 'PUBLIC_BASE_URL';
  const raw = fromFlag ? options['public-url'] : process.env.PUBLIC_BASE_URL || undefined;
  if (raw === undefined) return undefined;
  try {
    return parsePublicBaseUrl(raw);
  } catch (error) {
    throw new Error(`${name} ${(error as Error).message}`);
  }
}
