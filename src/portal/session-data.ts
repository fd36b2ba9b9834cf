// What the portal keeps in a session (express-session's SessionData, extended once, here).
import type { PendingSignIn } from './identity-provider.ts';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in developer; set only after the session id was regenerated. */
    developerId: number;
    /** A message for the next page ("Key revoked."), shown once. */
    notice: string;
    /** Between leaving for the identity provider and coming back. */
    pendingSignIn: PendingSignIn;
    /**
     * A key just created, between the post that made it and the page that shows it once (post,
     * redirect, get): sealed (sealing.ts), never in clear in the session store, and removed by
     * the page that shows it.
     */
    createdKey: string;
  }
}
