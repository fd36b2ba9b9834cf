// Builds the search indexes on worker threads, so index building (the longest step) uses every core.
import { availableParallelism } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { staticPaths } from '../contract/layout.ts';
import { precompress } from './compress.ts';
import { searchIndexes } from './search-index.ts';
import type { BuiltVersion, OutputFile } from './types.ts';

interface SearchJob {
  job: 'bible-search-indexes';
  versions: BuiltVersion[];
  buildHash: string;
}

export interface SearchOutput {
  /** The same files as `searchIndexes`, in the versions' order. */
  indexes: OutputFile[];
  /** Their precompressed copies. */
  compressed: OutputFile[];
}

/**
 * The search index files and their compressed copies, built on up to one worker per core.
 * Workers load this TypeScript file through tsx's loader, registered inside the worker.
 *
 * @example const { indexes, compressed } = await searchIndexesInWorkers(versions, buildHash);
 */
export async function searchIndexesInWorkers(versions: readonly BuiltVersion[], buildHash: string): Promise<SearchOutput> {
  const workers = Math.max(1, Math.min(availableParallelism(), versions.length));
  const groups: BuiltVersion[][] = Array.from({ length: workers }, () => []);
  versions.forEach((version, index) => {
    groups[index % workers].push(version);
  });
  const results = await Promise.all(groups.map((group) => runWorker({ job: 'bible-search-indexes', versions: group, buildHash })));
  // Back in the versions' order.
  const byPath = new Map(results.flatMap((result) => [...result.indexes, ...result.compressed]).map((file) => [file.path, file]));
  const pick = (path: string): OutputFile => {
    const file = byPath.get(path);
    if (!file) throw new Error(`search index worker returned no ${path}`);
    return file;
  };
  const indexes = versions.map((version) => pick(staticPaths.searchIndex(version.info.lang)));
  return { indexes, compressed: indexes.flatMap((file) => [pick(`${file.path}.br`), pick(`${file.path}.gz`)]) };
}

function runWorker(job: SearchJob): Promise<SearchOutput> {
  // The ESM entry of tsx's API, resolved from here (the CommonJS one cannot be imported this way).
  const tsxApi = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const self = new URL(import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(self)}); });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: job });
    worker.once('message', (output: SearchOutput) => {
      resolve(output);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`search index worker exited with code ${code}`));
    });
  });
}

// Inside a worker started by runWorker: build and send back.
const job = workerData as SearchJob | undefined;
if (parentPort && job?.job === 'bible-search-indexes') {
  const indexes = searchIndexes(job.versions, job.buildHash);
  const output: SearchOutput = { indexes, compressed: await precompress(indexes) };
  parentPort.postMessage(output);
}
