// The portal's own error pages (HTML, for people); the API's paths keep answering problem+json.
import { html, type SafeHtml } from './html.ts';
import { PORTAL_PATH } from './layout.ts';

export function errorPage(title: string, message: string): SafeHtml {
  return html`<h1>${title}</h1>
<p>${message}</p>
<p><a href="${PORTAL_PATH}/">Back to the portal</a></p>`;
}
