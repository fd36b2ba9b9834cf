// The full Bible build written for Cloudflare Pages (--host pages): within Pages' limits, accepted by Pages' own checks, served under its local runtime.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { type BuildResult, buildBible } from '../../build/pipeline.ts';
import { PAGES_LIMITS, PAGES_ROUTES_PATH, PAGES_WORKER_PATH } from '../../build/writers/pages-worker.ts';
import { PAGES_RULE_COMPLAINTS, type PagesDev, startPagesDev } from '../helpers/pages-dev.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';

const SOURCES = requirement('BIBLE_SOURCES_DIR').path;

describeWith(['BIBLE_SOURCES_DIR'], 'the full Bible build written for Cloudflare Pages', () => {
  let dir = '';
  let site = '';
  let result: BuildResult;
  /** Every file of the folder, relative to it, with its size. */
  let files: { path: string; bytes: number }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-pages-'));
    site = join(dir, 'site');
    result = await buildBible({
      sourcesDir: SOURCES!,
      publicDir: site,
      databasePath: join(dir, 'var/bible.sqlite'),
      reportPath: join(dir, 'var/bible-report.json'),
      host: 'pages',
    });
    const names = await readdir(site, { recursive: true });
    files = [];
    for (const name of names) {
      const info = await stat(join(site, name));
      if (info.isFile()) files.push({ path: name.split('\\').join('/'), bytes: info.size });
    }
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("stays within Pages' limits: files, bytes per file, _routes.json's rules, the Worker's size", async () => {
    expect(result.status).toBe('built');
    // The copies count against the limit and Pages compresses itself: there are none. Five versions of 1,189 chapters are there.
    expect(files.filter((file) => /\.(br|gz)$/.test(file.path))).toEqual([]);
    expect(files.filter((file) => /^api\/v1\/bible\/[a-z]{2}\/[A-Z0-9]{3}\/\d+\.json$/.test(file.path))).toHaveLength(5 * 1189);
    expect(files.length).toBeLessThan(PAGES_LIMITS.files);
    expect(files.filter((file) => file.bytes > PAGES_LIMITS.fileBytes)).toEqual([]);
    const routes = JSON.parse(await readFile(join(site, PAGES_ROUTES_PATH), 'utf8')) as { include: string[]; exclude: string[] };
    const rules = [...routes.include, ...routes.exclude];
    expect(routes.include.length).toBeGreaterThan(0);
    expect(rules.length).toBeLessThanOrEqual(PAGES_LIMITS.routesRules);
    expect(rules.filter((rule) => rule.length > PAGES_LIMITS.routesRuleLength)).toEqual([]);
    const worker = await readFile(join(site, PAGES_WORKER_PATH));
    expect(gzipSync(worker).byteLength).toBeLessThanOrEqual(PAGES_LIMITS.workerGzipBytes);
    // Nothing another host reads: Pages would parse _redirects and _headers and refuse their rules.
    expect((await readdir(site)).sort()).toEqual([PAGES_ROUTES_PATH, PAGES_WORKER_PATH, 'api', 'bible-search', 'widget'].sort());
    console.log(
      `Pages folder: ${files.length} files (limit ${PAGES_LIMITS.files}), largest ${Math.max(...files.map((file) => file.bytes))} bytes, ` +
        `_worker.js ${worker.byteLength} bytes (${gzipSync(worker).byteLength} gzipped), _routes.json ${rules.length} rules`,
    );
  });

  describeWith(['wrangler'], "under Pages' own code", () => {
    let pages: PagesDev | undefined;

    beforeAll(async () => {
      pages = await startPagesDev(site);
    });

    afterAll(() => pages?.stop());

    it("passes Pages' own check before an upload (wrangler pages project validate: file count and sizes)", async () => {
      const { stdout, stderr } = await promisify(execFile)(requirement('wrangler').path!, ['pages', 'project', 'validate', site], {
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
      });
      expect(`${stdout}${stderr}`).not.toMatch(/Error|only supports/);
    });

    it('reads the folder under wrangler pages dev with no rule refused, and serves the last chapter of every book in every language by the spec URL', async () => {
      expect(pages!.log()).toContain('Compiled Worker successfully');
      expect(pages!.log()).not.toMatch(PAGES_RULE_COMPLAINTS);
      for (const lang of LANGS) {
        const { books } = JSON.parse(await readFile(join(site, staticPaths.books(lang)), 'utf8')) as {
          books: { usfm: string; abbr: string; chapters: number }[];
        };
        expect(books, lang).toHaveLength(66);
        for (const book of books) {
          const url = `/api/v1/bible/${encodeURIComponent(book.abbr)}/${book.chapters}?lang=${lang}`;
          const response = await fetch(pages!.url + url);
          expect(response.status, url).toBe(200);
          expect(response.headers.get('access-control-allow-origin'), url).toBe('*');
          expect(await response.text(), url).toBe(await readFile(join(site, staticPaths.chapter(lang, book.usfm, book.chapters)), 'utf8'));
        }
      }
    });
  });
});
