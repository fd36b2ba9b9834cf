// Test helper: the public base URL test servers run with, and the problem type URIs under it.

/** PUBLIC_BASE_URL of every test server (startTestServer): a fixed address, so assertions are exact. */
export const TEST_PUBLIC_BASE_URL = 'https://api.example.test';

/** The `type` of a problem a test server answers: the anchor of `slug` on its /docs/problems page. */
export function problemType(slug: string): string {
  return `${TEST_PUBLIC_BASE_URL}/docs/problems#${slug}`;
}
