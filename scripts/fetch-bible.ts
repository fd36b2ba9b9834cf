// Downloads the five pinned Bible sources into the sources directory and checks their SHA-256.
// Usage: npm run fetch:bible -- [--sources DIR] [--mirror URL] [--only LSG,KJV|fr,en] [--manifest FILE]
//   --sources DIR   target directory (else BIBLE_SOURCES_DIR, else data/sources/)
//   --mirror URL    fetch <URL>/<file> instead of each upstream URL (else BIBLE_SOURCES_MIRROR)
//   --only LIST     version codes or languages, comma-separated (default: all)
//   --manifest FILE another version manifest (default: data/bible-versions.json)
import { chalk } from 'zx';
import { fetchSources } from '../build/fetch-sources.ts';
import { resolveSourcesDir } from '../build/sources.ts';
import { loadVersionManifest } from '../build/version-manifest.ts';
import { parseCommandLine } from './command-line.ts';

const options = parseCommandLine('scripts/fetch-bible.ts', {
  sources: { type: 'string' },
  mirror: { type: 'string' },
  only: { type: 'string' },
  manifest: { type: 'string' },
});
const started = performance.now();
try {
  const dir = resolveSourcesDir(options.sources, process.env);
  const mirror = options.mirror ?? (process.env.BIBLE_SOURCES_MIRROR?.trim() || undefined);
  const { versions } = loadVersionManifest(options.manifest);
  const only = options.only
    ?.split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  const entries = only ? versions.filter((entry) => only.includes(entry.code.toLowerCase()) || only.includes(entry.lang)) : versions;
  if (only && entries.length === 0)
    throw new Error(`--only ${options.only} matches no version (codes: ${versions.map((v) => v.code).join(', ')})`);

  console.log(`Bible sources → ${dir}${mirror ? ` (mirror ${mirror})` : ''}`);
  const fetched = await fetchSources({ dir, entries, mirror, log: (line) => console.log(`  ${line}`) });
  const downloaded = fetched.filter((source) => source.status === 'downloaded').length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(chalk.green(`${fetched.length} source(s) ready, ${downloaded} downloaded, in ${seconds} s`));
} catch (error) {
  // Known failures already say what went wrong and what to do; a stack trace adds nothing.
  console.error(chalk.red((error as Error).message));
  process.exitCode = 1;
}
