// autocannon ships no types; the benchmark uses its promise API and these fields of its result.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many answers instead of after `duration`. */
    amount?: number;
    headers?: Record<string, string>;
    requests?: { path: string; method?: string; headers?: Record<string, string> }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
