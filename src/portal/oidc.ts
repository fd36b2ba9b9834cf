// Routes of signing in through the configured OpenID Connect provider: leaving for it, and coming back.
import express, { type Router } from 'express';
import type { Logger } from '../http/logger.ts';
import type { PortalAuthService } from './auth-service.ts';
import { formErrors } from './form-error.ts';
import type { IdentityProvider, PendingSignIn, ProviderIdentity } from './identity-provider.ts';
import { csrfToken, sendPage } from './page-response.ts';
import { startSignedInSession } from './signed-in.ts';
import { signInPage } from './views/auth-pages.ts';
import { FORM_ERROR } from './views/forms.ts';
import { PORTAL_PATH } from './views/layout.ts';

export interface OidcRouteOptions {
  auth: PortalAuthService;
  provider: IdentityProvider;
  /** The portal's public address; the callback is `<portalUrl>/sign-in/provider/callback`, as registered with the provider. */
  portalUrl: string;
  logger: Logger;
}

export function createOidcRoutes({ auth, provider, portalUrl, logger }: OidcRouteOptions): Router {
  const router = express.Router();
  const redirectUri = `${portalUrl}/sign-in/provider/callback`;

  const refuse = (req: express.Request, res: express.Response, message: string, status: number) => {
    sendPage(
      req,
      res,
      'Sign in',
      signInPage({ csrfToken: csrfToken(req), providerName: provider.name, errors: { [FORM_ERROR]: message } }),
      status,
    );
  };

  // A link, not a form: a CSP form-action of 'self' would stop a form's redirect to the provider.
  router.get('/sign-in/provider', async (req, res) => {
    let started: { url: URL; pending: PendingSignIn };
    try {
      started = await provider.start(redirectUri);
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'identity provider unavailable');
      return refuse(req, res, `Sign-in with ${provider.name} is not available right now; try again later or use your e-mail address.`, 503);
    }
    req.session.pendingSignIn = started.pending;
    req.session.save(() => res.redirect(303, started.url.href));
  });

  router.get('/sign-in/provider/callback', async (req, res) => {
    const pending = req.session.pendingSignIn;
    delete req.session.pendingSignIn;
    if (!pending) return refuse(req, res, `The sign-in with ${provider.name} was not started here, or took too long. Try again.`, 400);
    let identity: ProviderIdentity;
    try {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      identity = await provider.finish(new URL(redirectUri + query), pending, redirectUri);
    } catch (error) {
      // State, nonce or code did not match, or the developer cancelled: nothing is revealed, nothing changes.
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'identity provider sign-in failed');
      return refuse(req, res, `The sign-in with ${provider.name} did not complete. Try again.`, 400);
    }
    try {
      const developer = await auth.signInWithProvider(identity);
      await startSignedInSession(req, developer.id);
      res.redirect(303, `${PORTAL_PATH}/keys`);
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      refuse(req, res, Object.values(errors)[0] ?? 'Sign-in refused.', 403);
    }
  });

  return router;
}
