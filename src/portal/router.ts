// The developer portal under /portal/: security headers, assets, sessions, CSRF, then the page groups, with HTML error pages.
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import session from 'express-session';
import helmet from 'helmet';
import type { AccountService } from '../accounts/service.ts';
import { demoChurchSlug } from '../church/demo-data.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
import { staticResources } from '../http/static-resources.ts';
import type { Fingerprinter } from '../keys/fingerprint.ts';
import { resourcePath } from '../resources/resources.ts';
import { createAccountRoutes } from './account.ts';
import { createPortalAuthService } from './auth-service.ts';
import { createPortalCsrf, type PortalCsrf } from './csrf.ts';
import { createKeyRoutes } from './keys.ts';
import { createOidcRoutes } from './oidc.ts';
import { type PortalLocals, sendPage } from './page-response.ts';
import { createPasswordHasher } from './passwords.ts';
import { createPortalLimits, LimitRefusal, type PortalLimitsDependencies } from './portal-limits.ts';
import type { PortalServices } from './portal-services.ts';
import { createSealer } from './sealing.ts';
import './session-data.ts';
import { RepositorySessionStore } from './session-store.ts';
import { createSignInRoutes } from './sign-in.ts';
import { createSignInThrottle, type SignInThrottleDependencies } from './sign-in-throttle.ts';
import { createSignUpRoutes } from './sign-up.ts';
import { loadDeveloper } from './signed-in.ts';
import { createOneTimeTokens } from './tokens.ts';
import { errorPage } from './views/error-page.ts';
import { PORTAL_PATH } from './views/layout.ts';
import { WorkGateBusy } from './work-gate.ts';

/** What the portal is made from; the session cookie's signing secret is derived with the fingerprinter. */
export interface PortalRouterServices extends SignInThrottleDependencies {
  config: Pick<
    Config,
    | 'passwordScryptCost'
    | 'passwordHashConcurrency'
    | 'passwordHashQueue'
    | 'passwordHashWaitMs'
    | 'portalUrl'
    | 'publicBaseUrl'
    | 'sessionIdleHours'
    | 'sessionCookieSecure'
  > &
    PortalLimitsDependencies['config'];
  limitStores: SignInThrottleDependencies['limitStores'] & PortalLimitsDependencies['limitStores'];
  logger: Logger;
  accountService: AccountService;
  portal: PortalServices;
  fingerprinter: Fingerprinter;
}

/** The portal's own cookie name: the API sets none, and providers on the same host set theirs. */
export const SESSION_COOKIE = 'portal_sid';

const ASSETS_MAX_AGE_SECONDS = 60 * 60;
const PORTAL_METHODS = new Set(['GET', 'HEAD', 'POST']);

/**
 * Mount at PORTAL_PATH, before the API's method guard (the portal's forms post).
 *
 * @example app.use(PORTAL_PATH, createPortalRouter(services));
 */
export function createPortalRouter(services: PortalRouterServices): Router {
  const { config, logger, accountService: accounts, portal } = services;
  const auth = createPortalAuthService({
    accounts,
    credentials: portal.credentials,
    sessions: portal.sessions,
    tokens: createOneTimeTokens(portal.tokens),
    passwords: createPasswordHasher(config.passwordScryptCost, {
      concurrency: config.passwordHashConcurrency,
      queue: config.passwordHashQueue,
      waitMs: config.passwordHashWaitMs,
    }),
    mail: portal.mail,
    limits: createPortalLimits(services),
  });

  const router = express.Router();
  router.use(portalHelmet());
  router.use(
    '/assets',
    assetMethodCheck,
    staticResources(resourcePath('public/portal'), { maxAgeSeconds: ASSETS_MAX_AGE_SECONDS, unknown: 'error' }),
  );
  router.use(methodCheck);
  router.use((_req, res, next) => {
    // Pages hold CSRF tokens, new keys and account details: never kept by a cache.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  router.use(portalSession(services));
  const csrf = createPortalCsrf(services.fingerprinter, config.sessionCookieSecure);
  router.use(csrf.protect);
  router.use((req, res, next) => {
    (res.locals as PortalLocals).csrfToken = () => csrf.token(req, res);
    next();
  });
  router.use(loadDeveloper(accounts));

  router.use(createKeyRoutes(accounts, config.publicBaseUrl, demoChurchSlug(), createSealer(services.fingerprinter, 'created key v1')));
  router.use(createSignUpRoutes(auth, portal.mailer.outboxDir));
  router.use(
    createSignInRoutes({
      auth,
      throttle: createSignInThrottle(services),
      providerName: portal.identityProvider?.name,
      outboxDir: portal.mailer.outboxDir,
    }),
  );
  if (portal.identityProvider)
    router.use(createOidcRoutes({ auth, provider: portal.identityProvider, portalUrl: config.portalUrl, logger }));
  router.use(createAccountRoutes(accounts, auth));

  router.use((req, res) => {
    sendPage(req, res, 'Page not found', errorPage('Page not found', 'There is no portal page at this address.'), 404);
  });
  router.use(portalErrorHandler(services, csrf));
  return router;
}

/** Strict CSP: this origin only, no inline script or style, no framing, forms post only here. */
function portalHelmet(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

function portalSession({ config, portal, fingerprinter }: PortalRouterServices): RequestHandler {
  const idleMs = config.sessionIdleHours * 60 * 60 * 1000;
  const middleware = session({
    name: SESSION_COOKIE,
    // Derived from the key fingerprint secret (an HMAC of a fixed label), so there is no second secret to keep.
    secret: fingerprinter.fingerprint('portal session cookie signature v1'),
    store: new RepositorySessionStore(portal.sessions, idleMs),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    cookie: { path: PORTAL_PATH, httpOnly: true, sameSite: 'lax', secure: config.sessionCookieSecure, maxAge: idleMs },
  });
  return (req, res, next) =>
    middleware(req, res, (error?: unknown) => {
      // The session could not be read (the database is locked or does not answer). express-session
      // would then end it after the answer (no req.session, unset: 'destroy'): one more wait on the
      // same database, and a developer signed out by an outage. Without an id it leaves it alone.
      if (error) delete (req as { sessionID?: string }).sessionID;
      next(error);
    });
}

/** Assets are files: read only, whatever the pages behind them accept (a form post to one is 405, not 404). */
const assetMethodCheck: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  res.setHeader('Allow', 'GET, HEAD');
  res.status(405).type('text').send('Method not allowed');
};

const methodCheck: RequestHandler = (req, res, next) => {
  if (PORTAL_METHODS.has(req.method)) return next();
  res.setHeader('Allow', 'GET, HEAD, POST');
  res.status(405).type('text').send('Method not allowed');
};

function portalErrorHandler({ logger }: PortalRouterServices, csrf: PortalCsrf): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return void res.destroy();
    if (csrf.isRefusal(error)) {
      const message = 'This form has expired or did not come from this site. Go back, reload the page and try again.';
      return sendPage(req, res, 'Form expired', errorPage('Form expired', message), 403);
    }
    if (error instanceof ApiError && error.problem.status === 503) return unavailablePage(req, res, error, logger);
    if (error instanceof LimitRefusal) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      return sendPage(req, res, 'Too many requests', errorPage('Too many requests', error.message), 429);
    }
    if (error instanceof WorkGateBusy) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      const message = `The portal is busy checking passwords right now. Go back and try again in ${error.retryAfterSeconds} seconds.`;
      return sendPage(req, res, 'Busy', errorPage('Busy right now', message), 503);
    }
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 404) return sendPage(req, res, 'Not found', errorPage('Not found', 'There is nothing at this address.'), 404);
    if (status < 500)
      return sendPage(req, res, 'Bad request', errorPage('Bad request', 'The request could not be read. Go back and try again.'), status);
    logger.error({ requestId: res.locals.requestId, path: req.path, error: String(error?.stack ?? error) }, 'unhandled portal error');
    sendPage(
      req,
      res,
      'Something went wrong',
      errorPage('Something went wrong', 'The page could not be shown. Try again in a moment.'),
      500,
    );
  };
}

/**
 * A condition of the server's that passes (the database locked by another process, or PostgreSQL
 * not answering within its timeouts: StorageUnavailableError): 503 with the problem's Retry-After,
 * as the API answers it, logged at warn. Nothing was changed, so the form can be sent again.
 */
function unavailablePage(req: Request, res: Response, error: ApiError, logger: Logger): void {
  logger.warn({ requestId: res.locals.requestId, path: req.path, err: error }, error.warning ?? 'service unavailable');
  for (const [name, value] of Object.entries(error.problem.headers ?? {})) res.setHeader(name, value);
  const message = 'The portal cannot reach its database right now; nothing was changed. Try again in a few seconds.';
  sendPage(req, res, 'Try again in a moment', errorPage('Try again in a moment', message), 503);
}
