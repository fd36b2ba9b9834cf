// CSRF protection of every portal form (csrf-sync: a per-session token, sent back as the `_csrf` field).
import { csrfSync } from 'csrf-sync';

/**
 * Posts without the session's token, or with another one, are refused with a 403 before any
 * handler runs; GET and HEAD change nothing and need none.
 */
export const portalCsrf = csrfSync({
  getTokenFromRequest: (req) => {
    const token: unknown = (req.body as Record<string, unknown> | undefined)?._csrf;
    return typeof token === 'string' ? token : undefined;
  },
  size: 32,
});
