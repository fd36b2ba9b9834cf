// Types of `negotiator` (Express's content negotiation, under req.accepts*), for the calls this service makes.
// @types/negotiator describes version 0.6 (no `preferred` option); these cover the 1.x calls this service makes.
declare module 'negotiator' {
  interface NegotiatorOptions {
    /** The server's order of preference among codings the client weighs equally. */
    preferred?: string[];
  }

  class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The best of `available` for the request's Accept-Encoding, or undefined when none is acceptable. */
    encoding(available?: string[], options?: NegotiatorOptions): string | undefined;
    encodings(available?: string[], options?: NegotiatorOptions): string[];
    /** The best of `available` for the request's Accept (q-value, then specificity, then Accept's order, then `available`'s), or undefined. */
    mediaType(available?: string[]): string | undefined;
  }

  export = Negotiator;
}
