// Routes of the account page: change of name and password, and deleting the account (its keys stop at once).
import express, { type Router } from 'express';
import type { AccountService } from '../accounts/service.ts';
import type { PortalAuthService } from './auth-service.ts';
import { formErrors } from './form-error.ts';
import { csrfToken, formText, redirectWithNotice, sendPage } from './page-response.ts';
import { hashSessionId } from './session-store.ts';
import { currentDeveloper, endSession, requireDeveloper } from './signed-in.ts';
import { accountDeletedPage, accountPage, deleteAccountPage } from './views/account-pages.ts';
import { PORTAL_PATH } from './views/layout.ts';

export function createAccountRoutes(accounts: AccountService, auth: PortalAuthService): Router {
  const router = express.Router();
  router.use('/account', requireDeveloper);

  router.get('/account', async (req, res) => {
    const developer = currentDeveloper(res);
    const hasPassword = await auth.hasPassword(developer.id);
    sendPage(req, res, 'Your account', accountPage({ csrfToken: csrfToken(req), developer, hasPassword }));
  });

  router.post('/account/name', async (req, res) => {
    const developer = currentDeveloper(res);
    const name = formText(req, 'name');
    try {
      await accounts.renameDeveloper(developer.id, name);
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      const hasPassword = await auth.hasPassword(developer.id);
      return sendPage(
        req,
        res,
        'Your account',
        accountPage({ csrfToken: csrfToken(req), developer, hasPassword, errors, values: { name } }),
        400,
      );
    }
    redirectWithNotice(req, res, `${PORTAL_PATH}/account`, 'Your name is saved.');
  });

  router.post('/account/password', async (req, res) => {
    const developer = currentDeveloper(res);
    try {
      await auth.changePassword(developer.id, formText(req, 'currentPassword'), formText(req, 'newPassword'), hashSessionId(req.sessionID));
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      const hasPassword = await auth.hasPassword(developer.id);
      return sendPage(req, res, 'Your account', accountPage({ csrfToken: csrfToken(req), developer, hasPassword, errors }), 400);
    }
    redirectWithNotice(req, res, `${PORTAL_PATH}/account`, 'Your password is changed; your other sessions are signed out.');
  });

  router.get('/account/delete', async (req, res) => {
    const developer = currentDeveloper(res);
    const activeKeys = (await accounts.listKeys(developer.id)).filter((key) => key.revokedAt === null).length;
    sendPage(req, res, 'Delete your account?', deleteAccountPage({ csrfToken: csrfToken(req), developer, activeKeys }));
  });

  router.post('/account/delete', async (req, res) => {
    const developer = currentDeveloper(res);
    if (formText(req, 'confirm') !== 'yes') {
      const activeKeys = (await accounts.listKeys(developer.id)).filter((key) => key.revokedAt === null).length;
      const errors = { confirm: 'Tick the box to confirm that the account and its keys go.' };
      return sendPage(
        req,
        res,
        'Delete your account?',
        deleteAccountPage({ csrfToken: csrfToken(req), developer, activeKeys, errors }),
        400,
      );
    }
    // The service deletes the keys in the same transaction; sessions, password and links go with the account.
    await accounts.deleteDeveloper(developer.id);
    await endSession(req, res);
    sendPage(req, res, 'Account deleted', accountDeletedPage());
  });

  return router;
}
