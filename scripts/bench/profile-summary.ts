// Where a V8 CPU profile's time goes: the functions with the most self time (file:line) and self time grouped by area.
// Usage: node --import tsx scripts/bench/profile-summary.ts --profile FILE.cpuprofile [--top N] [--answers N] [--map FILE]
//   --profile FILE  a .cpuprofile (`node --cpu-prof`, or church-only.ts --cpu-prof DIR)
//   --map FILE      the source map of the profiled bundle (default: server.mjs.map beside the profile, which church-only.ts
//                   copies there, else the one beside the bundle now, which a later `npm start` may have replaced)
//   --top N         functions listed (default 25)
//   --answers N     answers the profiled process gave: each line then also says µs per answer
// Shares are of the busy time (idle left out), so two profiles of runs of different lengths compare. Areas: our src/
// by folder, each package of node_modules by name, Node's own modules (node:http, streams, net…), GC, native code.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../command-line.ts';

/** The parts of a .cpuprofile this reads (the Chrome DevTools format). */
export interface CpuProfile {
  nodes: readonly ProfileNode[];
  samples: readonly number[];
  timeDeltas: readonly number[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: readonly number[];
}

/** Where a frame of a bundle came from (dist/start/server.mjs → src/keys/auth.ts:71), as its source map says. */
export type SourceLocator = (url: string, lineNumber: number, columnNumber: number) => { url: string; lineNumber: number } | undefined;

/** Self time of one function or area, in µs of the profile. */
export interface SelfTime {
  name: string;
  us: number;
}

export interface ProfileSummary {
  /** Busy time: every sample but `(idle)`. */
  busyUs: number;
  idleUs: number;
  functions: SelfTime[];
  areas: SelfTime[];
}

/**
 * The self time of every function (by name and file:line) and of every area, busiest first.
 *
 * @example summarise(JSON.parse(await readFile('CPU.cpuprofile', 'utf8'))).areas[0] // { name: 'node: http', us: 812345 }
 */
export function summarise(profile: CpuProfile, locate: SourceLocator = () => undefined): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** A frame's own place, through the source map when it is in a bundle. */
  const placeOf = (frame: ProfileNode['callFrame']) => locate(frame.url, frame.lineNumber, frame.columnNumber) ?? frame;
  /** The area of the nearest caller written in JavaScript: native code is charged to what called it. */
  const callerArea = (id: number): string => {
    for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
      const frame = (byId.get(at) as ProfileNode).callFrame;
      if (frame.url !== '') return areaOf(placeOf(frame).url, frame.functionName);
    }
    return 'nothing';
  };
  const selfById = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    // timeDeltas[i] is the time before sample i; attributing it to sample i is what DevTools does.
    selfById.set(id, (selfById.get(id) ?? 0) + Math.max(0, profile.timeDeltas[index] ?? 0));
  });
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfById) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const place = placeOf(frame);
    const native = frame.url === '' && !frame.functionName.startsWith('(');
    const name =
      `${frame.functionName || '(anonymous)'} ${native ? `(native, called from ${callerArea(id)})` : where(place.url, place.lineNumber)}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
    const area = native ? `native, called from ${callerArea(id)}` : areaOf(place.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const sorted = (map: Map<string, number>) => [...map].map(([name, us]) => ({ name, us })).sort((a, b) => b.us - a.us);
  return { busyUs, idleUs, functions: sorted(functions), areas: sorted(areas) };
}

/**
 * The area a frame's time belongs to: `src/<folder>`, `build/`, a package of node_modules,
 * a module of Node (`node: http`), or V8's own entries (GC, native code, the program itself).
 */
export function areaOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return '(program: V8 and native, outside JS)';
    return functionName;
  }
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packageMatch) return `package: ${packageMatch[1]}`;
  const nodeMatch = /^node:(?:internal\/)?([^/]+?)(?:\/|$)/.exec(url);
  if (nodeMatch) return `node: ${nodeMatch[1]!.replace(/^_/, '').replace(/_.*$/, '')}`;
  const sourceMatch = /(?:^|\/)(src|build|scripts)\/([^/]+)(\/)?/.exec(url);
  if (sourceMatch) return `${sourceMatch[1]}/${sourceMatch[2]}${sourceMatch[3] ?? ''}`;
  return `other: ${url}`;
}

/** A frame's place, short: the path from the checkout's src/ or the package, with its 1-based line. */
function where(url: string, lineNumber: number): string {
  if (url === '') return '';
  const short = url.replace(/^(?:file:\/\/)?(?:.*?\/)?(src|build|scripts)\//, '$1/').replace(/^.*\/node_modules\//, 'node_modules/');
  return `${short}:${lineNumber + 1}`;
}

/** Reads the source map next to each bundle a frame names (`file.mjs.map`), once per bundle. */
function sourceLocator(mapFile: string | undefined): SourceLocator {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined;
      try {
        map = new SourceMap(JSON.parse(readFileSync(mapFile ?? `${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        map = undefined;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (url, lineNumber, columnNumber) => {
    if (!url.startsWith('file://') || !url.endsWith('.mjs')) return undefined;
    const entry = mapOf(url)?.findEntry(lineNumber, columnNumber);
    if (!entry || !('originalSource' in entry)) return undefined;
    return { url: entry.originalSource, lineNumber: entry.originalLine };
  };
}

/** The bundle's source map kept beside a profile (church-only.ts copies it there), if there is one. */
function beside(profile: string): string | undefined {
  const map = join(dirname(profile), 'server.mjs.map');
  return existsSync(map) ? map : undefined;
}

function formatLine(entry: SelfTime, busyUs: number, answers: number | undefined): string {
  const share = `${((entry.us / busyUs) * 100).toFixed(1).padStart(5)} %`;
  const perAnswer = answers ? `${(entry.us / answers).toFixed(2).padStart(7)} µs/answer  ` : '';
  return `${share}  ${perAnswer}${entry.name}`;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('profile-summary.ts')) {
  const options = parseCommandLine('scripts/bench/profile-summary.ts', {
    profile: { type: 'string' },
    top: { type: 'string', default: '25' },
    answers: { type: 'string' },
    map: { type: 'string' },
  });
  if (!options.profile) {
    console.error('--profile FILE is needed (see the usage at the top of scripts/bench/profile-summary.ts)');
    process.exit(1);
  }
  const answers = options.answers === undefined ? undefined : Number(options.answers);
  const summary = summarise(
    JSON.parse(await readFile(options.profile, 'utf8')) as CpuProfile,
    sourceLocator(options.map ?? beside(options.profile)),
  );
  console.log(
    `${options.profile}: busy ${(summary.busyUs / 1e6).toFixed(2)} s, idle ${(summary.idleUs / 1e6).toFixed(2)} s` +
      (answers ? `, ${answers} answers: ${(summary.busyUs / answers).toFixed(1)} µs busy per answer` : ''),
  );
  console.log('\nself time by area (share of busy time):');
  for (const area of summary.areas) console.log(formatLine(area, summary.busyUs, answers));
  console.log(`\ntop ${options.top} functions by self time:`);
  for (const entry of summary.functions.slice(0, Number(options.top))) console.log(formatLine(entry, summary.busyUs, answers));
}
