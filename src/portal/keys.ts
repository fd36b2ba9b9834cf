// Routes of the key dashboard: list, create (shown once), revoke with a confirmation, and the guide to using a key.
import express, { type Router } from 'express';
import { AccountRefusal } from '../accounts/refusal.ts';
import type { AccountService } from '../accounts/service.ts';
import { formErrors } from './form-error.ts';
import { csrfToken, formText, redirectWithNotice, sendPage } from './page-response.ts';
import type { Sealer } from './sealing.ts';
import { currentDeveloper, requireDeveloper } from './signed-in.ts';
import { landingPage } from './views/auth-pages.ts';
import { errorPage } from './views/error-page.ts';
import { guidePage, keyCreatedPage, keysPage, revokeKeyPage } from './views/key-pages.ts';
import { PORTAL_NAME, PORTAL_PATH } from './views/layout.ts';

/** Status of a refused key creation, by refusal code. */
const REFUSAL_STATUS: Partial<Record<string, number>> = { 'key-limit': 409, 'unverified-email': 403 };

/** What a created key's page needs, sealed in the session between the post and the page. */
interface CreatedKeyNote {
  key: string;
  keyId: number;
}

/**
 * `exampleSlug`: the church the guide's examples ask for (demoChurchSlug). `sealer` seals a new
 * key in the session for the one page that shows it.
 */
export function createKeyRoutes(accounts: AccountService, apiBaseUrl: string, exampleSlug: string, sealer: Sealer): Router {
  const router = express.Router();

  router.get('/', (req, res) => {
    if (res.locals.developer) return res.redirect(303, `${PORTAL_PATH}/keys`);
    sendPage(req, res, PORTAL_NAME, landingPage());
  });

  router.get('/guide', (req, res) => {
    sendPage(req, res, 'Using your API key', guidePage(apiBaseUrl, exampleSlug));
  });

  router.get('/keys', requireDeveloper, async (req, res) => {
    const developer = currentDeveloper(res);
    const keys = await accounts.listKeys(developer.id);
    sendPage(req, res, 'Your API keys', keysPage({ csrfToken: csrfToken(req), developer, keys }));
  });

  router.post('/keys', requireDeveloper, async (req, res, next) => {
    const developer = currentDeveloper(res);
    const name = formText(req, 'name');
    try {
      const created = await accounts.createKey(developer.id, name);
      // Post, redirect, get: a reload shows the page again (once) or the list, and never posts a second key.
      const note: CreatedKeyNote = { key: created.key, keyId: created.record.id };
      req.session.createdKey = sealer.seal(JSON.stringify(note));
      req.session.save((error: unknown) => (error ? next(error) : res.redirect(303, `${PORTAL_PATH}/keys/new`)));
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      const status = (error instanceof AccountRefusal && REFUSAL_STATUS[error.code]) || 400;
      const keys = await accounts.listKeys(developer.id);
      // A refusal about the key (limit, unverified address) is shown at the name input that created it.
      const shown = errors.name ?? errors.form ?? Object.values(errors)[0];
      sendPage(
        req,
        res,
        'Your API keys',
        keysPage({ csrfToken: csrfToken(req), developer, keys, errors: { name: shown }, values: { name } }),
        status,
      );
    }
  });

  router.get('/keys/new', requireDeveloper, async (req, res, next) => {
    const sealed = req.session.createdKey;
    if (sealed === undefined) return res.redirect(303, `${PORTAL_PATH}/keys`);
    // Taken out before it is shown: the key is in this one response and nowhere else afterwards.
    delete req.session.createdKey;
    const note = JSON.parse(sealer.open(sealed)) as CreatedKeyNote;
    const record = (await accounts.listKeys(currentDeveloper(res).id)).find((key) => key.id === note.keyId);
    req.session.save((error: unknown) => {
      if (error) return next(error);
      if (!record) return res.redirect(303, `${PORTAL_PATH}/keys`);
      sendPage(req, res, 'Your new key', keyCreatedPage(note.key, record));
    });
  });

  router.get('/keys/:keyId/revoke', requireDeveloper, async (req, res) => {
    const key = await activeKeyOf(accounts, currentDeveloper(res).id, String(req.params.keyId));
    if (!key) return sendPage(req, res, 'No such key', errorPage('No such key', 'You have no active key with this number.'), 404);
    sendPage(req, res, `Revoke ${key.name}?`, revokeKeyPage({ csrfToken: csrfToken(req), key }));
  });

  router.post('/keys/:keyId/revoke', requireDeveloper, async (req, res) => {
    const developer = currentDeveloper(res);
    const key = await activeKeyOf(accounts, developer.id, String(req.params.keyId));
    if (!key) return sendPage(req, res, 'No such key', errorPage('No such key', 'You have no active key with this number.'), 404);
    await accounts.revokeKey(developer.id, key.id);
    redirectWithNotice(
      req,
      res,
      `${PORTAL_PATH}/keys`,
      `The key “${key.name}” (…${key.hint}) is revoked; requests with it are refused from now on.`,
    );
  });

  return router;
}

/** The developer's active key with this id, or undefined for a malformed id, someone else's key or a revoked one. */
async function activeKeyOf(accounts: AccountService, developerId: number, raw: string) {
  if (!/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return (await accounts.listKeys(developerId)).find((key) => key.id === id && key.revokedAt === null);
}
