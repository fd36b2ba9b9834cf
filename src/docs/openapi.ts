// The OpenAPI 3.1 document of the service, made from the endpoint tables, the schemas the code types and validates with, and this server's settings.
import { LANGS } from '../../build/contract/books.ts';
import { bibleEndpoints } from '../bible/endpoints.ts';
import { churchEndpoints } from '../church/endpoints.ts';
import { healthEndpoints } from '../health/endpoints.ts';
import { KEY_LENGTH, KEY_PREFIX } from '../keys/format.ts';
import { documentDescription } from './openapi/description.ts';
import { type AnyTable, tablePaths } from './openapi/operations.ts';
import { SchemaComponents } from './openapi/schema-components.ts';
import type { DocumentParts, Json, OpenApiConfig } from './openapi/types.ts';

export type { AnyTable, OpenApiConfig };

/** The tables of the API, in the order the document lists them: what the service serves (src/app.ts). */
export const API_TABLES: readonly AnyTable[] = [churchEndpoints, bibleEndpoints, healthEndpoints];

/** Where the service serves the document. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The document served at /api/openapi.json: a path per endpoint of `tables`, each operation with
 * its parameters, headers and every status it can answer. Its figures (limits, page sizes,
 * languages) and addresses come from `config` and the service's constants, its schemas from the
 * TypeBox schemas (build/contract/, src/church/responses.ts), so the text, the types and the
 * checks agree.
 *
 * @example openApiDocument(loadConfig()).paths['/api/v1/bible/search'].get.operationId // 'searchBible'
 */
export function openApiDocument(config: OpenApiConfig, tables: readonly AnyTable[] = API_TABLES): Json {
  const parts: DocumentParts = { config, components: new SchemaComponents() };
  const paths = tablePaths(parts, tables);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Church Data and Bible API',
      version: '1.0.0',
      summary: `Public, read-only, free: church data behind personal API keys, and a Bible in ${LANGS.length} languages without a key.`,
      description: documentDescription(config),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: config.publicBaseUrl, description: 'This service' }],
    tags: [
      { name: 'Church', description: 'Public data of churches whose profile is public, behind a personal API key.' },
      {
        name: 'Bible',
        description: 'Public-domain and openly licensed versions, one per language, without a key; also published as static JSON.',
      },
      { name: 'Operations', description: 'Probes for monitors and load balancers: no key, no rate limit, never cached.' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal key of ${KEY_LENGTH} characters: \`${KEY_PREFIX}\`, random base62 characters and a checksum. Shown once when it is created in the developer portal; the service keeps only a fingerprint of it. Use it from a server, never from a browser.`,
        },
      },
      schemas: parts.components.all(),
    },
  };
}
