// Sign-in through an OpenID Connect provider (authorization code flow with PKCE, state and nonce), with openid-client.
import type * as Oidc from 'openid-client';
import { isLoopbackHost, type OidcConfig } from '../config.ts';

let loading: Promise<typeof Oidc> | undefined;

/**
 * openid-client (with oauth4webapi and jose), imported at the first sign-in through a provider: an
 * instance without OIDC_ISSUER, or one nobody signs in to, does not keep their 0.75 MB of heap (issue 28).
 */
function openidClient(): Promise<typeof Oidc> {
  loading ??= import('openid-client');
  return loading;
}

/** What the portal keeps in the session between sending the developer away and their return. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Who the provider says signed in. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email?: string;
  /** Only a provider-verified address may create, link or verify an account. */
  emailVerified: boolean;
  name?: string;
}

/**
 * One configured provider. The other implementation is "none" (OIDC_ISSUER unset): the portal
 * then offers e-mail and password only.
 *
 * @example
 * const { url, pending } = await provider.start(redirectUri); // keep `pending` in the session, redirect to `url`
 * const identity = await provider.finish(new URL(callbackUrl), pending, redirectUri);
 */
export interface IdentityProvider {
  /** Label of the button ("Sign in with …"). */
  name: string;
  start(redirectUri: string): Promise<{ url: URL; pending: PendingSignIn }>;
  /** Exchanges the code of the callback URL and reads the e-mail claims; throws when anything does not match. */
  finish(callbackUrl: URL, pending: PendingSignIn, redirectUri: string): Promise<ProviderIdentity>;
}

export function createOidcProvider(settings: OidcConfig): IdentityProvider {
  let discovered: Promise<Oidc.Configuration> | undefined;
  // Discovery waits for the first sign-in, so the service starts even while the provider is down; a failure is retried next time.
  const configuration = (): Promise<Oidc.Configuration> => {
    discovered ??= discover(settings).catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };
  return {
    name: settings.name,
    async start(redirectUri) {
      const [oidc, config] = await Promise.all([openidClient(), configuration()]);
      const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url, pending };
    },
    async finish(callbackUrl, pending, redirectUri) {
      const [oidc, config] = await Promise.all([openidClient(), configuration()]);
      const tokens = await oidc.authorizationCodeGrant(
        config,
        callbackUrl,
        { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true },
        { redirect_uri: redirectUri },
      );
      const claims = tokens.claims();
      if (!claims) throw new Error('The provider sent no ID token.');
      // The ID token may lack the e-mail claims; userinfo has them when the scope asked for `email`.
      const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      const email = stringClaim(userInfo.email) ?? stringClaim(claims.email);
      const verified = userInfo.email_verified ?? claims.email_verified;
      return {
        issuer: config.serverMetadata().issuer,
        subject: claims.sub,
        email,
        emailVerified: verified === true || verified === 'true',
        name: stringClaim(userInfo.name) ?? stringClaim(claims.name),
      };
    },
  };
}

async function discover(settings: OidcConfig): Promise<Oidc.Configuration> {
  const oidc = await openidClient();
  const issuer = new URL(settings.issuer);
  // Plain http only to a provider on this machine (development and tests); anything else must be https.
  const options = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname) ? { execute: [oidc.allowInsecureRequests] } : undefined;
  return oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, options);
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
