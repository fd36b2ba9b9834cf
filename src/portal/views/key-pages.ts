// Pages of the key dashboard: the list, creating a key (shown once), revoking one, and how to call the API with it.

import { MAX_ACTIVE_KEYS, MAX_KEY_NAME_LENGTH } from '../../accounts/service.ts';
import type { ApiKeyRecord, Developer } from '../../accounts/types.ts';
import type { FormState } from './auth-pages.ts';
import { csrfField, errorSummary, field } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { PORTAL_PATH } from './layout.ts';

export function keysPage(state: FormState & { developer: Developer; keys: readonly ApiKeyRecord[] }): SafeHtml {
  const { developer, keys, errors = {}, values = {} } = state;
  const active = keys.filter((key) => key.revokedAt === null).length;
  const verified = developer.emailVerifiedAt !== null;
  return html`<h1>Your API keys</h1>
${
  !verified &&
  html`<div class="warning" role="note">
<p><strong>Your e-mail address ${developer.email} is not verified yet.</strong> Keys can be created once it is: follow the link in the message we sent you.</p>
<form method="post" action="${PORTAL_PATH}/verify-email/resend">${csrfField(state.csrfToken)}<button type="submit" class="secondary">Send the link again</button></form>
</div>`
}
${errorSummary(errors)}
<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a key</h2>
<p>${active} of ${MAX_ACTIVE_KEYS} active keys in use. Name each key after the site or application that uses it.</p>
<form method="post" action="${PORTAL_PATH}/keys" novalidate>
${csrfField(state.csrfToken)}
${field({ name: 'name', label: 'Key name', value: values.name, errors, maxLength: MAX_KEY_NAME_LENGTH, hint: 'For example "parish website".' })}
<button type="submit"${verified ? '' : html` disabled`}>Create key</button>
</form>
</section>
<section aria-labelledby="keys-heading">
<h2 id="keys-heading">Keys</h2>
${keys.length === 0 ? html`<p>No keys yet.</p>` : keyTable(keys)}
</section>
<p>How to send a key, and why it never goes into browser code: <a href="${PORTAL_PATH}/guide">the guide</a>.</p>`;
}

export function keyCreatedPage(key: string, record: ApiKeyRecord): SafeHtml {
  return html`<h1>Your new key “${record.name}”</h1>
<div class="warning" role="note"><p><strong>Copy it now: it is shown only this once.</strong> We keep only a fingerprint of it, so nobody, us included, can show it again. If you lose it, revoke it and create another.</p></div>
<div class="secret">
<label for="new-key">API key</label>
<input id="new-key" class="key-value" type="text" value="${key}" readonly spellcheck="false" autocomplete="off">
<button type="button" class="copy-button" data-copy-target="new-key" hidden>Copy</button>
<p class="copy-status" role="status" aria-live="polite"></p>
</div>
<p>Keep it on your server (an environment variable or a secret store), never in code that runs in a browser or an app.</p>
<p><a class="button" href="${PORTAL_PATH}/keys">I have copied it: back to my keys</a></p>`;
}

export function revokeKeyPage(state: FormState & { key: ApiKeyRecord }): SafeHtml {
  const { key } = state;
  return html`<h1>Revoke the key “${key.name}”?</h1>
<p>The key ending in <code>${key.hint}</code> stops working at once: the very next request with it is refused (401). This cannot be undone.</p>
<form method="post" action="${PORTAL_PATH}/keys/${key.id}/revoke">
${csrfField(state.csrfToken)}
<button type="submit" class="danger">Revoke the key</button>
<a class="button secondary" href="${PORTAL_PATH}/keys">Keep it</a>
</form>`;
}

/** `exampleSlug` is a church the examples ask for: one of the demo data, so they answer on a checkout. */
export function guidePage(apiBaseUrl: string, exampleSlug: string): SafeHtml {
  const url = `${apiBaseUrl}/api/public/v1/churches/${exampleSlug}/events`;
  return html`<h1>Using your API key</h1>
<p>Church endpoints answer only with a key, sent in the <code>Authorization</code> header. The Bible endpoints need none.</p>
<p>The examples ask for the upcoming events of <code>${exampleSlug}</code>, a church of the service's demo data; put the slug of the church you want in its place.</p>
<h2>With curl</h2>
<pre tabindex="0" aria-label="curl example"><code>curl -H "Authorization: Bearer $CHURCH_API_KEY" \\
  "${url}"</code></pre>
<h2>From server-side JavaScript (Node.js 20 or later)</h2>
<pre tabindex="0" aria-label="JavaScript example"><code>// The key comes from the server's environment, never from the page.
const url = '${url}';
const response = await fetch(url, {
  headers: { Authorization: \`Bearer \${process.env.CHURCH_API_KEY}\` },
});
if (!response.ok) {
  const problem = await response.json();
  throw new Error(\`\${response.status}: \${problem.detail}\`);
}
const events = await response.json();</code></pre>
<h2>A calendar feed for your visitors</h2>
<p>Ask for <code>Accept: text/calendar</code> and the events endpoint answers an iCalendar of the same events. Serve it from your own website's server at an address of yours: visitors subscribe to that address in their calendar app, and the key never leaves your server. A route in a Node.js server (Express):</p>
<pre tabindex="0" aria-label="Calendar feed example"><code>app.get('/events.ics', async (req, res) => {
  const response = await fetch('${url}', {
    headers: { Authorization: \`Bearer \${process.env.CHURCH_API_KEY}\`, Accept: 'text/calendar' },
  });
  if (!response.ok) return res.status(502).end();
  res.type('text/calendar').set('Cache-Control', 'public, max-age=900').send(await response.text());
});</code></pre>
<p>Link to it as <code>webcal://your-site.example/events.ics</code>. For search engines, <code>Accept: application/ld+json</code> on the profile and the events answers schema.org data to put in a <code>&lt;script type="application/ld+json"&gt;</code> of your pages.</p>
<h2>Why a key never goes into browser code</h2>
<p>Anything sent to a browser can be read by whoever uses it: the page's source, its network requests, the developer tools. A key in browser code is a key published, and anyone could then spend your limit (120 requests a minute) or get the key revoked. Call the API from your server, and give your pages only what they need.</p>
<p>If a key has leaked, <a href="${PORTAL_PATH}/keys">revoke it</a> and create another. Errors are described on the <a href="/docs/problems">error types page</a>.</p>`;
}

function keyTable(keys: readonly ApiKeyRecord[]): SafeHtml {
  return html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${keys.map(
  (key) => html`<tr>
<td>${key.name}</td>
<td><code>…${key.hint}</code></td>
<td>${formatTime(key.createdAt)}</td>
<td>${key.lastUsedAt === null ? 'never' : formatTime(key.lastUsedAt)}</td>
<td>${key.revokedAt === null ? html`<span class="status active">active</span>` : html`<span class="status revoked">revoked ${formatTime(key.revokedAt)}</span>`}</td>
<td>${key.revokedAt === null && html`<a href="${PORTAL_PATH}/keys/${key.id}/revoke">Revoke<span class="visually-hidden"> ${key.name}</span></a>`}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}

/** `2026-03-01 10:00 UTC`: the same for every reader, wherever they are. */
function formatTime(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}
