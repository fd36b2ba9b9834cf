// The page shell every portal page shares: head, header with navigation, the one-time notice, main content, footer.
import { html, type SafeHtml } from './html.ts';

/** What every page needs besides its content. */
export interface PageContext {
  /** CSRF token for the forms on the page (sign-out included). */
  csrfToken: string;
  /** The signed-in developer's name, or undefined when signed out. */
  developerName?: string;
  /** A message from the previous action ("Key revoked."), shown once. */
  notice?: string;
}

/** The portal's path under the service: assets, links and forms are relative to it. */
export const PORTAL_PATH = '/portal';

/** The portal's name: every page title ends with it, and the landing page's title is it alone. */
export const PORTAL_NAME = 'Developer portal';

/**
 * `title` is the page's own ("Your keys"); the document title adds the portal's name, unless the
 * title is that name already (the landing page).
 *
 * @example res.send(renderPage(context, 'Your keys', html`<h1>Your keys</h1>…`).value)
 */
export function renderPage(context: PageContext, title: string, content: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === PORTAL_NAME ? title : `${title} · ${PORTAL_NAME}`}</title>
<link rel="icon" href="${PORTAL_PATH}/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${PORTAL_PATH}/assets/portal.css">
<script src="${PORTAL_PATH}/assets/copy-button.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<a class="brand" href="${PORTAL_PATH}/">Church Data and Bible API · Developers</a>
<nav aria-label="Portal">
<ul>
${context.developerName === undefined ? signedOutLinks() : signedInLinks(context)}
</ul>
</nav>
</header>
<main id="main">
${context.notice && html`<p class="notice" role="status">${context.notice}</p>`}
${content}
</main>
<footer class="site-footer">
<p><a href="/docs">API reference</a> · <a href="/docs/problems">Error types</a> · <a href="${PORTAL_PATH}/guide">Using your key</a></p>
</footer>
</body>
</html>
`;
}

function signedOutLinks(): SafeHtml {
  return html`<li><a href="${PORTAL_PATH}/sign-in">Sign in</a></li>
<li><a href="${PORTAL_PATH}/sign-up">Create an account</a></li>
<li><a href="${PORTAL_PATH}/guide">Guide</a></li>`;
}

function signedInLinks(context: PageContext): SafeHtml {
  return html`<li><a href="${PORTAL_PATH}/keys">Keys</a></li>
<li><a href="${PORTAL_PATH}/guide">Guide</a></li>
<li><a href="${PORTAL_PATH}/account">Account</a></li>
<li><form method="post" action="${PORTAL_PATH}/sign-out" class="inline-form">
<input type="hidden" name="_csrf" value="${context.csrfToken}">
<button type="submit" class="link-button">Sign out</button>
</form></li>`;
}
