// Test helper: a real OpenID Connect provider (oidc-provider) on a loopback port, with accounts the test sets up.
import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './redis-server.ts';

/** What the provider says about an account (its login name in the provider's dev login form is the key). */
export interface TestIdentity {
  email?: string;
  emailVerified?: boolean;
  name?: string;
}

export interface OidcTestProvider {
  issuer: string;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME for the portal under test. */
  env: Record<string, string>;
  /** Accounts by login; add before signing in. */
  identities: Map<string, TestIdentity>;
  stop(): Promise<void>;
}

export const TEST_PROVIDER_NAME = 'Test ID';

/**
 * Registers one confidential client whose redirect URI is the portal's callback under `portalUrl`.
 * Its sign-in pages are oidc-provider's development interactions: any login, any password.
 */
export async function startOidcTestProvider(portalUrl: string): Promise<OidcTestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const identities = new Map<string, TestIdentity>();
  const clientSecret = 'test-client-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'portal',
        client_secret: clientSecret,
        redirect_uris: [`${portalUrl}/sign-in/provider/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    async findAccount(_ctx: unknown, accountId: string) {
      const identity = identities.get(accountId) ?? {};
      return {
        accountId,
        async claims() {
          return { sub: accountId, email: identity.email, email_verified: identity.emailVerified ?? false, name: identity.name };
        },
      };
    },
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: TEST_PROVIDER_NAME },
    identities,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
