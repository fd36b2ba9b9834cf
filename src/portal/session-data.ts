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
  }
}
