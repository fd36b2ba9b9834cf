// Test helper: a browser-like HTTP client for the portal (cookie jar, CSRF token from the last page, no redirect following).

export interface PortalResponse {
  status: number;
  headers: Headers;
  body: string;
  /** Location of a redirect, if any. */
  location?: string;
}

/**
 * Keeps cookies like a browser on one host and reads each page's `_csrf` field, so a post sends
 * the token of the page it came from.
 *
 * @example
 * const client = new PortalClient(server.url);
 * await client.get('/portal/sign-up');
 * await client.post('/portal/sign-up', { name: 'Ana', email, password });
 */
export class PortalClient {
  readonly baseUrl: string;
  readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page that had one. */
  csrfToken = '';
  /** Every Set-Cookie header received, as sent. */
  readonly setCookies: string[] = [];

  /** Headers sent with every request (a proxy's X-Forwarded-Proto, say). */
  readonly extraHeaders: Record<string, string>;

  constructor(baseUrl: string, extraHeaders: Record<string, string> = {}) {
    this.baseUrl = baseUrl;
    this.extraHeaders = extraHeaders;
  }

  async get(path: string): Promise<PortalResponse> {
    return this.request('GET', path);
  }

  /** Posts a form with the current CSRF token unless `_csrf` is given (or set to undefined to leave it out). */
  async post(path: string, fields: Record<string, string | undefined> = {}): Promise<PortalResponse> {
    const form = new URLSearchParams();
    const withToken = '_csrf' in fields ? fields : { _csrf: this.csrfToken, ...fields };
    for (const [name, value] of Object.entries(withToken)) if (value !== undefined) form.set(name, value);
    return this.request('POST', path, form);
  }

  /** Follows a redirect response with a GET, as a browser does after a 303. */
  async follow(response: PortalResponse): Promise<PortalResponse> {
    if (!response.location) throw new Error(`Not a redirect: ${response.status}`);
    return this.get(response.location);
  }

  get sessionCookie(): string | undefined {
    return this.cookies.get('portal_sid');
  }

  private async request(method: string, path: string, form?: URLSearchParams): Promise<PortalResponse> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method, headers, body: form?.toString(), redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      this.setCookies.push(cookie);
      const [pair, ...attributes] = cookie.split(';');
      const [name, value] = pair.split('=');
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const body = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrfToken = token;
    return { status: response.status, headers: response.headers, body, location: response.headers.get('location') ?? undefined };
  }
}
