// Calling the API from TypeScript with types generated from its OpenAPI document (docs/typed-client.md); test/docs/typed-client.test.ts compiles and runs it.
// First: npx openapi-typescript http://127.0.0.1:3000/api/openapi.json -o api-types.ts
import createClient from 'openapi-fetch';
import type { paths } from './api-types.ts';

const api = createClient<paths, 'application/json' | 'application/problem+json'>({ baseUrl: process.env.API_BASE_URL ?? 'http://127.0.0.1:3000' });

// The Bible needs no key. Paths, parameters and bodies are checked by the compiler.
const passage = await api.GET('/api/v1/bible/passage', { params: { query: { ref: 'John 3:16', lang: 'en' } } });
if (passage.error) throw new Error(`${passage.error.title}: ${passage.error.detail}`);
for (const section of passage.data.passages) {
  for (const verse of section.verses) console.log(`${section.reference} (${passage.data.version}) ${verse.verse}: ${verse.text}`);
}

// Church data needs your key: call it from your server, with the key from its environment.
const church = await api.GET('/api/public/v1/churches/{slug}', {
  params: { path: { slug: 'grace-paris' } },
  headers: { Authorization: `Bearer ${process.env.CHURCH_API_KEY}` },
});
if (church.error) throw new Error(`${church.error.status} ${church.error.title}: ${church.error.detail}`);
console.log(`${church.data.name}, ${church.data.city}: ${church.data.publicPage}`);
