// The service's own Cache-Control values, beside the Bible's (build/contract/http-policy.ts), which the static hosts share.

/** Church responses: a key belongs to one developer, so shared caches keep none; a minute is fresh enough. */
export const CHURCH_CACHE_CONTROL = 'private, max-age=60';

/** The OpenAPI document and the problem types page: they change with a deployment only. */
export const DOCS_CACHE_CONTROL = 'public, max-age=300';
