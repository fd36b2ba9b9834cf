// A probe loaded into the service (`node --import scripts/bench/rss-probe.mjs`, by scripts/bench/peak-rss.ts --probe):
// each time the resident set reaches a new high, what it is made of then (V8's spaces, smaps by mapping); written at exit.
// Plain JavaScript: Node loads it before the service's bundle, with no loader. Not part of the service.
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

/** Where the record goes when the process exits (JSON). */
const OUT = process.env.RSS_PROBE_OUT;
/** A new high is recorded when the RSS passed the last recorded one by this much (kB). */
const STEP_KB = 512;

let highKb = 0;
let record;
if (OUT) {
  setInterval(sample, 10).unref();
  process.on('exit', () => writeFileSync(OUT, `${JSON.stringify(record, null, 2)}\n`));
}

function sample() {
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  if (rssKb < highKb + STEP_KB) return;
  highKb = rssKb;
  record = {
    rssKb,
    uptimeS: process.uptime(),
    spaces: Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [space.space_name, { committedKb: space.space_size >> 10, usedKb: space.space_used_size >> 10 }]),
    ),
    heap: v8.getHeapStatistics(),
    mappings: smapsByName(),
  };
}

/** Resident kB (Rss, Private_Dirty, Anonymous) of each kind of mapping: a file's path, [heap], [stack], or anonymous ones by size. */
function smapsByName() {
  const text = readFileSync('/proc/self/smaps', 'utf8');
  const sums = new Map();
  let current;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const sizeKb = (Number.parseInt(header[2], 16) - Number.parseInt(header[1], 16)) >> 10;
      const name = header[3] || `anon ${sizeKb >= 65536 ? '>=64MB' : sizeKb >= 8192 ? '8-64MB' : sizeKb >= 1024 ? '1-8MB' : '<1MB'}`;
      current = sums.get(name) ?? { rssKb: 0, count: 0 };
      current.count++;
      sums.set(name, current);
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss && current) current.rssKb += Number(rss[1]);
  }
  return Object.fromEntries([...sums].filter(([, sum]) => sum.rssKb > 0).sort((a, b) => b[1].rssKb - a[1].rssKb));
}
