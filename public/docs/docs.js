// Renders /api/openapi.json with Scalar's API reference (vendored in vendor/, no CDN): "Test request" against this server
// for the keyless endpoints; church endpoints are refused from the browser, so no key is ever typed into or sent from this page.
const CHURCH_PATH = '/api/public/';

Scalar.createApiReference('#reference', {
  url: '/api/openapi.json',
  // Requests go to the server that serves this page, whatever address the document names.
  servers: [{ url: window.location.origin, description: 'This server' }],
  // Nothing from another origin: no web fonts, no telemetry, no hosted agent, no proxy.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  hideDarkModeToggle: true,
  documentDownloadType: 'json',
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  hiddenClients: true,
  // Every operation on the page at once (the tests count them; a reader can search or scroll).
  defaultOpenAllTags: true,
  onBeforeRequest({ request }) {
    if (new URL(request.url, window.location.href).pathname.startsWith(CHURCH_PATH)) {
      throw new Error('Church endpoints are called from your server with your key: use the curl or fetch example.');
    }
  },
});
