// The time as the app sees it on a request path: the system clock in service, a fixed or settable one in tests.

/** What "now" is for upcoming events and key last-used times (the rate limiters keep their stores' own time). */
export interface Clock {
  now(): Date;
}

/** The system clock: what the service runs with. */
export const systemClock: Clock = { now: () => new Date() };
