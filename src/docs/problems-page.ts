// The /docs/problems page: every problem type of the catalogue under its own anchor, rendered on the server.

import { PROBLEM_CONTENT_TYPE } from '../../build/contract/http-policy.ts';
import { type ProblemType, problemTypeUri } from '../../build/contract/problems.ts';
import { ALL_PROBLEM_TYPES } from '../http/problems.ts';

/**
 * The page the `type` URI of every problem points at: one section per type, `id` = its slug, with
 * status, title and what a client should do. Made from the catalogue, so a new type appears here
 * without anyone editing the page. Its links are under the public base URL, as the type URIs are,
 * so they hold behind a proxy that serves the service under a path prefix.
 *
 * @example res.type('html').send(problemsPage('https://api.example.org'))
 */
export function problemsPage(publicBaseUrl: string): string {
  const types = ALL_PROBLEM_TYPES;
  const index = types
    .map((type) => `      <li><a href="#${escapeHtml(type.slug)}">${type.status} ${escapeHtml(type.title)}</a></li>`)
    .join('\n');
  const sections = types.map((type) => section(type, publicBaseUrl)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Problem types — Church Data and Bible API</title>
  <style>${STYLE}</style>
</head>
<body>
  <main>
    <h1>Problem types</h1>
    <p>
      Every error of this API is an RFC 9457 problem (<code>${PROBLEM_CONTENT_TYPE}</code>) with
      <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, and <code>parameter</code>
      when a query or path parameter is at fault. <code>type</code> is the address of one of the sections
      below; <code>title</code> is the same for every occurrence of a type, <code>detail</code> explains the
      one at hand. Tell types apart by <code>type</code>, not by <code>detail</code>, whose wording may change.
      The static copies of the Bible (nginx, <code>_redirects</code>) answer with the same types.
    </p>
    <p><a href="${escapeHtml(publicBaseUrl)}/docs">API reference</a> · <a href="${escapeHtml(publicBaseUrl)}/api/openapi.json">OpenAPI document</a></p>
    <ul class="index">
${index}
    </ul>
${sections}
  </main>
</body>
</html>
`;
}

function section(type: ProblemType, publicBaseUrl: string): string {
  const slug = escapeHtml(type.slug);
  return `    <section id="${slug}">
      <h2><a href="#${slug}">${type.status} ${escapeHtml(type.title)}</a></h2>
      <dl>
        <dt>type</dt><dd><code>${escapeHtml(problemTypeUri(publicBaseUrl, type.slug))}</code></dd>
        <dt>status</dt><dd>${type.status}</dd>
        <dt>title</dt><dd>${escapeHtml(type.title)}</dd>
      </dl>
      <p>${inlineCode(escapeHtml(type.advice))}</p>
    </section>`;
}

const STYLE = `
body { font: 16px/1.55 system-ui, sans-serif; margin: 0; color: #1d2328; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem; }
code { background: #eef1f3; padding: 1px 4px; border-radius: 3px; font-size: 0.9em; overflow-wrap: anywhere; }
section { border-top: 1px solid #dde3e8; padding-top: 0.5rem; margin-top: 1.5rem; }
section:target { background: #fff8e1; }
h2 a { color: inherit; text-decoration: none; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
.index { columns: 2; }
`;

/** `code` spans of the catalogue's advice, after escaping (backticks are not HTML). */
function inlineCode(html: string): string {
  return html.replace(/`([^`]+)`/g, '<code>$1</code>');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);
}
