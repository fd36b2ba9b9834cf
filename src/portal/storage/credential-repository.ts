// Storage of how developers sign in: password hashes and identity-provider links. Store and fetch, no rules.

export interface IdentityLink {
  /** The provider's issuer URL, as discovered. */
  issuer: string;
  /** The provider's stable user id (`sub`). */
  subject: string;
  developerId: number;
  linkedAt: string;
}

/**
 * What the portal's sign-in (src/portal/auth-service.ts) needs. Rows go with their developer:
 * deleting a developer deletes them. The contract is test/portal/storage/credential-repository-contract.test.ts.
 *
 * @example
 * await credentials.setPasswordHash(developer.id, await passwords.hash(password), now);
 */
export interface CredentialRepository {
  /** The stored scrypt hash, or undefined when the developer has no password (provider sign-in only). */
  passwordHash(developerId: number): Promise<string | undefined>;
  /** Sets or replaces the developer's password hash. */
  setPasswordHash(developerId: number, passwordHash: string, updatedAt: string): Promise<void>;
  /** The developer an identity signs in as, if it is linked. */
  developerIdByIdentity(issuer: string, subject: string): Promise<number | undefined>;
  /** Links an identity; false when it is linked already (to whomever), so a link is never moved silently. */
  linkIdentity(link: IdentityLink): Promise<boolean>;
}
