// Pages of signing up, verifying, signing in and resetting a password (content only; layout.ts wraps them).

import { MIN_PASSWORD_LENGTH } from '../password-policy.ts';
import { csrfField, errorSummary, type FieldErrors, field } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { PORTAL_NAME, PORTAL_PATH } from './layout.ts';

export interface FormState {
  csrfToken: string;
  errors?: FieldErrors;
  values?: Partial<Record<string, string>>;
}

export function landingPage(): SafeHtml {
  return html`<h1>${PORTAL_NAME}</h1>
<p class="lead">Get an API key for the church endpoints of the Church Data and Bible API: events, posts, library, shop, gallery and live streams of the churches that publish them.</p>
<p>The Bible endpoints need no key. Church endpoints need one, sent from your server as <code>Authorization: Bearer sk_live_…</code>.</p>
<p class="actions"><a class="button" href="${PORTAL_PATH}/sign-up">Create an account</a> <a class="button secondary" href="${PORTAL_PATH}/sign-in">Sign in</a></p>
<p>Read the <a href="/docs">API reference</a> and the <a href="${PORTAL_PATH}/guide">guide to using a key</a>.</p>`;
}

export function signUpPage(state: FormState): SafeHtml {
  const { errors = {}, values = {} } = state;
  return html`<h1>Create an account</h1>
${errorSummary(errors)}
<form method="post" action="${PORTAL_PATH}/sign-up" novalidate>
${csrfField(state.csrfToken)}
${field({ name: 'name', label: 'Your name', value: values.name, autocomplete: 'name', errors, maxLength: 200 })}
${field({ name: 'email', label: 'E-mail address', type: 'email', value: values.email, autocomplete: 'email', errors, hint: 'We send a link to verify it; keys can be created once it is verified.' })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', errors, minLength: MIN_PASSWORD_LENGTH, hint: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password. A passphrase of several words is easy to remember.` })}
<button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="${PORTAL_PATH}/sign-in">Sign in</a>.</p>`;
}

/**
 * The same page whether the address was new or known: the answer reveals no account.
 * `outboxDir`: where messages go when the service sends none (no SMTP_URL); undefined when it sends them.
 */
export function checkInboxPage(email: string, outboxDir?: string): SafeHtml {
  return html`<h1>Check your inbox</h1>
${outboxNote(outboxDir)}
<p>We ${outboxDir === undefined ? 'sent' : 'wrote'} a message to <strong>${email}</strong>. Follow its link within 24 hours to verify your address.</p>
${
  outboxDir === undefined &&
  html`<p>No message after a few minutes? Look in your spam folder, or <a href="${PORTAL_PATH}/sign-in">sign in</a> and send the link again from your keys page.</p>`
}`;
}

/**
 * Without a mail server, where the message went instead: said on every page that announces one,
 * whether or not an account had the address, so it reveals no more than the page did.
 */
function outboxNote(outboxDir: string | undefined): SafeHtml | undefined {
  if (outboxDir === undefined) return undefined;
  return html`<div class="warning" role="note"><p><strong>This service sends no e-mail</strong> (no <code>SMTP_URL</code> is set): each message is written as an <code>.eml</code> file to <code>${outboxDir}</code> on the server, and its link to the service's log.</p></div>`;
}

export function signInPage(state: FormState & { providerName?: string }): SafeHtml {
  const { errors = {}, values = {} } = state;
  return html`<h1>Sign in</h1>
${errorSummary(errors)}
<form method="post" action="${PORTAL_PATH}/sign-in" novalidate>
${csrfField(state.csrfToken)}
${field({ name: 'email', label: 'E-mail address', type: 'email', value: values.email, autocomplete: 'username', errors })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', errors })}
<button type="submit">Sign in</button>
</form>
<p><a href="${PORTAL_PATH}/forgot-password">Forgot your password?</a></p>
${state.providerName !== undefined && html`<p class="provider"><a class="button secondary" href="${PORTAL_PATH}/sign-in/provider">Sign in with ${state.providerName}</a></p>`}
<p>New here? <a href="${PORTAL_PATH}/sign-up">Create an account</a>.</p>`;
}

export function forgotPasswordPage(state: FormState): SafeHtml {
  const { errors = {}, values = {} } = state;
  return html`<h1>Reset your password</h1>
${errorSummary(errors)}
<p>Give the address of your account; we send it a link to choose a new password, valid for one hour.</p>
<form method="post" action="${PORTAL_PATH}/forgot-password" novalidate>
${csrfField(state.csrfToken)}
${field({ name: 'email', label: 'E-mail address', type: 'email', value: values.email, autocomplete: 'email', errors })}
<button type="submit">Send the link</button>
</form>`;
}

/** The same page whether an account has the address or not; `outboxDir` as for checkInboxPage. */
export function resetSentPage(email: string, outboxDir?: string): SafeHtml {
  return html`<h1>Check your inbox</h1>
${outboxNote(outboxDir)}
<p>If an account uses <strong>${email}</strong>, a message with a link to choose a new password is on its way. The link works once, within one hour.</p>
<p><a href="${PORTAL_PATH}/sign-in">Back to sign-in</a></p>`;
}

export function resetPasswordPage(state: FormState & { token: string }): SafeHtml {
  const { errors = {} } = state;
  return html`<h1>Choose a new password</h1>
${errorSummary(errors)}
<p>Once it is changed, you are signed out everywhere.</p>
<form method="post" action="${PORTAL_PATH}/reset-password" novalidate>
${csrfField(state.csrfToken)}
<input type="hidden" name="token" value="${state.token}">
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', errors, minLength: MIN_PASSWORD_LENGTH, hint: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password.` })}
<button type="submit">Change password</button>
</form>`;
}

/** A link that is unknown, used or expired: one message for all three. */
export function linkInvalidPage(what: 'verification' | 'reset'): SafeHtml {
  const again =
    what === 'verification'
      ? html`<a href="${PORTAL_PATH}/sign-in">Sign in</a> and send a new verification link from your keys page.`
      : html`<a href="${PORTAL_PATH}/forgot-password">Ask for a new reset link</a>.`;
  return html`<h1>This link no longer works</h1>
<p>It was used already, has expired, or was copied incompletely. ${again}</p>`;
}

/** Verification asks for a click, so a mail scanner opening the link does not use it up. */
export function verifyEmailPage(state: FormState & { token: string }): SafeHtml {
  return html`<h1>Verify your e-mail address</h1>
<form method="post" action="${PORTAL_PATH}/verify-email">
${csrfField(state.csrfToken)}
<input type="hidden" name="token" value="${state.token}">
<button type="submit">Verify my address</button>
</form>`;
}

export function emailVerifiedPage(signedIn: boolean): SafeHtml {
  return html`<h1>Your address is verified</h1>
<p>You can now create API keys.</p>
<p>${signedIn ? html`<a class="button" href="${PORTAL_PATH}/keys">Go to your keys</a>` : html`<a class="button" href="${PORTAL_PATH}/sign-in">Sign in</a>`}</p>`;
}
