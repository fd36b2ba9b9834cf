// oidc-provider ships no types; the tests use only its constructor, callback() and a few options.
declare module 'oidc-provider' {
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
