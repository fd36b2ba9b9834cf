// How far V8 lets the service's heap grow past what survived the last full collection: set once, at start.
import v8 from 'node:v8';

/**
 * After each full collection V8 lets the old generation grow by a factor of up to 4 of what
 * survived before it collects again. The service keeps about 20-25 MB alive, while serving
 * promotes short-lived objects (request and response objects in flight during a scavenge) at
 * several MB a second under load: the old generation reached 90 MB, most of it garbage, before
 * each full collection. At 50% the heap collects at about 35 MB instead; a full collection of
 * that heap takes a few ms, mostly incremental. Measured over every endpoint and bursts of static,
 * range, search and church requests: peak RSS 260-290 MB -> 210 MB, CPU per request within the noise.
 * At 25% (docs/memory.md round 4), with about 28 MB alive: peak 165 -> 156 MB under scripts/bench/peak-rss.ts
 * (three rounds alternated), for 9-11 full collections a run instead of 6, 30-70 ms more of the event
 * loop's pauses over about 50,000 answers (about 1 µs an answer); the process's CPU time moved within the noise.
 */
export const HEAP_GROWING_PERCENT = 25;

/**
 * Sets V8's heap growing factor for this process and the worker threads it starts. V8 reads it
 * each time it sets the next collection's limit, so setting it once the process runs takes
 * effect from the next full collection on (and the flag does not exist in NODE_OPTIONS).
 */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
