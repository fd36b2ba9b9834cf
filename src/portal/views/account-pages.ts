// Pages of the account: name, password, and deleting the account.

import { MAX_DEVELOPER_NAME_LENGTH } from '../../accounts/service.ts';
import type { Developer } from '../../accounts/types.ts';
import { MIN_PASSWORD_LENGTH } from '../password-policy.ts';
import type { FormState } from './auth-pages.ts';
import { csrfField, errorSummary, field } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { PORTAL_PATH } from './layout.ts';

export function accountPage(state: FormState & { developer: Developer; hasPassword: boolean }): SafeHtml {
  const { developer, errors = {}, values = {} } = state;
  return html`<h1>Your account</h1>
${errorSummary(errors)}
<dl class="facts">
<dt>E-mail address</dt><dd>${developer.email} ${developer.emailVerifiedAt === null ? html`(not verified yet)` : html`(verified)`}</dd>
<dt>Account created</dt><dd>${developer.createdAt.slice(0, 10)}</dd>
</dl>
<section aria-labelledby="name-heading">
<h2 id="name-heading">Name</h2>
<form method="post" action="${PORTAL_PATH}/account/name" novalidate>
${csrfField(state.csrfToken)}
${field({ name: 'name', label: 'Your name', value: values.name ?? developer.name, autocomplete: 'name', errors, maxLength: MAX_DEVELOPER_NAME_LENGTH })}
<button type="submit">Save name</button>
</form>
</section>
<section aria-labelledby="password-heading">
<h2 id="password-heading">${state.hasPassword ? 'Change password' : 'Set a password'}</h2>
${!state.hasPassword && html`<p>You sign in through your identity provider; a password lets you sign in with your e-mail address too.</p>`}
<form method="post" action="${PORTAL_PATH}/account/password" novalidate>
${csrfField(state.csrfToken)}
${state.hasPassword && field({ name: 'currentPassword', label: 'Current password', type: 'password', autocomplete: 'current-password', errors })}
${field({ name: 'newPassword', label: 'New password', type: 'password', autocomplete: 'new-password', errors, minLength: MIN_PASSWORD_LENGTH, hint: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password. Your other sessions are signed out.` })}
<button type="submit">${state.hasPassword ? 'Change password' : 'Set password'}</button>
</form>
</section>
<section aria-labelledby="delete-heading">
<h2 id="delete-heading">Delete the account</h2>
<p>Your keys stop working at once, and your account is removed.</p>
<p><a class="button danger" href="${PORTAL_PATH}/account/delete">Delete my account…</a></p>
</section>`;
}

export function deleteAccountPage(state: FormState & { developer: Developer; activeKeys: number }): SafeHtml {
  const { errors = {} } = state;
  return html`<h1>Delete your account?</h1>
${errorSummary(errors)}
<p>The account ${state.developer.email} is removed, and its ${state.activeKeys} active key${state.activeKeys === 1 ? '' : 's'} stop${state.activeKeys === 1 ? 's' : ''} working at once. This cannot be undone.</p>
<form method="post" action="${PORTAL_PATH}/account/delete" novalidate>
${csrfField(state.csrfToken)}
<div class="field${errors.confirm ? ' field-error' : ''}">
${errors.confirm && html`<p class="error" id="field-confirm-error">${errors.confirm}</p>`}
<input id="field-confirm" type="checkbox" name="confirm" value="yes"${errors.confirm ? html` aria-describedby="field-confirm-error" aria-invalid="true"` : ''}>
<label for="field-confirm" class="inline-label">I understand that my keys stop working and my account is deleted.</label>
</div>
<button type="submit" class="danger">Delete my account</button>
<a class="button secondary" href="${PORTAL_PATH}/account">Keep it</a>
</form>`;
}

export function accountDeletedPage(): SafeHtml {
  return html`<h1>Your account is deleted</h1>
<p>Its keys no longer work. You are welcome back any time: <a href="${PORTAL_PATH}/sign-up">create a new account</a>.</p>`;
}
