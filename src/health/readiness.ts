// Readiness checks: a list of named async checks, each bounded by a short timeout, run together for /readyz.

/**
 * One thing the service needs to answer its requests (the database, the Bible build, Redis).
 * A backend adds its own to the list (createServices); /readyz runs them all.
 */
export interface ReadinessCheck {
  /** Short and stable: monitors and the 503's detail name the check by it (`database`, `redis`). */
  name: string;
  /** Resolves with an optional note (the Bible's build hash) when ready; rejects with the reason when not. */
  run(): Promise<string | undefined> | string | undefined;
  /** How long the check may take before it counts as failed (default READINESS_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** The outcome of one check, as /readyz lists it. */
export interface ReadinessResult {
  name: string;
  ok: boolean;
  /** The check's note when ready, the reason when not. */
  detail?: string;
  /** Time the check took, in milliseconds (its timeout when it gave no answer). */
  ms: number;
}

/** A check with no answer within this time fails: a load balancer's probe must get an answer well within its own timeout. */
export const READINESS_TIMEOUT_MS = 1_000;

/**
 * Runs every check at once and waits for each to succeed, fail or time out; never rejects. A check
 * that hangs (a paused Redis) costs its timeout, not the probe's.
 *
 * @example const results = await runReadinessChecks(services.readiness); const ready = results.every((result) => result.ok);
 */
export function runReadinessChecks(checks: readonly ReadinessCheck[]): Promise<ReadinessResult[]> {
  return Promise.all(checks.map(runOne));
}

async function runOne(check: ReadinessCheck): Promise<ReadinessResult> {
  const timeoutMs = check.timeoutMs ?? READINESS_TIMEOUT_MS;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const note = await Promise.race([Promise.resolve().then(() => check.run()), timedOut]);
    return { name: check.name, ok: true, ...(note === undefined ? {} : { detail: note }), ms: elapsed() };
  } catch (error) {
    return { name: check.name, ok: false, detail: error instanceof Error ? error.message : String(error), ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}
