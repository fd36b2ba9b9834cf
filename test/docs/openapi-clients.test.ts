// What generated clients need from the OpenAPI document: operationIds, named shapes, enums, every status with its problem types.
import { describe, expect, it } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { PROBLEM_CONTENT_TYPE } from '../../build/contract/http-policy.ts';
import { loadConfig } from '../../src/config.ts';
import { openApiDocument } from '../../src/docs/openapi.ts';
import { ALL_PROBLEM_TYPES } from '../../src/http/problems.ts';
import { documentValidator } from './document-validator.ts';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters: { name: string; in: string; schema: Json }[];
  responses: Record<
    string,
    { content?: Record<string, { schema: Json; example?: unknown; examples?: Record<string, { value: unknown }> }> }
  >;
}

const document = openApiDocument(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.org' })) as {
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, Json> };
};
const operations = Object.entries(document.paths).map(([path, item]) => ({ path, ...item.get }));
const schemas = document.components.schemas;
const validator = documentValidator(document);

describe('the OpenAPI document for generated clients', () => {
  it('names every operation', () => {
    expect(operations.map((operation) => operation.operationId)).toEqual([
      'getChurch',
      'getChurchEvents',
      'getChurchPosts',
      'getChurchLive',
      'getChurchLibrary',
      'getChurchStore',
      'getChurchAlbums',
      'getChurchAlbumPhotos',
      'listBibleVersions',
      'listBibleBooks',
      'getBibleDownload',
      'getChapter',
      'getVerseRange',
      'getVerse',
      'getPassage',
      'searchBible',
      'getParallel',
      'findBibleReferences',
      'getVerseOfTheDay',
      'getHealth',
      'getReadiness',
    ]);
  });

  it('answers every operation with a named component, page envelopes and lists included', () => {
    const bodies = operations.map((operation) => operation.responses['200'].content?.['application/json'].schema);
    expect(bodies).toEqual(
      [
        'Church',
        'EventList',
        'PostPage',
        'LiveStatus',
        'LibraryItemPage',
        'ProductList',
        'AlbumList',
        'PhotoList',
        'VersionList',
        'BookList',
        'Download',
        'Passage',
        'Passage',
        'Passage',
        'PassageList',
        'SearchHitPage',
        'Parallel',
        'FoundReferenceList',
        'VerseOfTheDay',
        'Health',
        'Readiness',
      ].map((name) => ({ $ref: `#/components/schemas/${name}` })),
    );
    for (const name of ['PostPage', 'LibraryItemPage', 'SearchHitPage']) {
      expect(Object.keys(schemas[name].properties as Json), name).toEqual(['items', 'page', 'size', 'totalItems', 'totalPages']);
    }
  });

  it('makes lang one enum of the languages, wherever a parameter or a field holds one', () => {
    expect(schemas.Lang).toMatchObject({ type: 'string', enum: [...LANGS] });
    const langParameters = operations.flatMap((operation) => operation.parameters.filter((parameter) => parameter.name === 'lang'));
    expect(langParameters).toHaveLength(9);
    for (const parameter of langParameters) expect(parameter.schema).toEqual({ $ref: '#/components/schemas/Lang', default: LANGS[0] });
    const langFields = Object.entries(schemas).filter(([, schema]) => (schema.properties as Json | undefined)?.lang !== undefined);
    expect(langFields.map(([name]) => name).sort()).toEqual([
      'BookList',
      'DownloadVersion',
      'FoundReferenceList',
      'Passage',
      'PassageList',
      'VerseOfTheDay',
      'Version',
    ]);
    for (const [, schema] of langFields) expect((schema.properties as Json).lang).toEqual({ $ref: '#/components/schemas/Lang' });
  });

  it('writes nullable fields as a type that allows null, and leaves out fields no answer carries', () => {
    expect((schemas.Church.properties as Json).website).toMatchObject({ type: ['string', 'null'], format: 'uri' });
    expect((schemas.LibraryItem.properties as Json).price).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Price' }, { type: 'null' }],
      description: 'Null for a free item.',
    });
    for (const link of ['previous', 'next']) {
      expect((schemas.Passage.properties as Json)[link]).toMatchObject({
        anyOf: [{ $ref: '#/components/schemas/ChapterLink' }, { type: 'null' }],
      });
    }
    expect(Object.keys(schemas.Verse.properties as Json)).toEqual([
      'verse',
      'text',
      'heading',
      'notes',
      'paragraphs',
      'poetry',
      'wordsOfJesus',
    ]);
  });
});

describe('the errors the document promises', () => {
  it('documents a 400 on every operation that takes a parameter (only the versions list and the probes take none)', () => {
    for (const operation of operations) {
      if (operation.parameters.length > 0) expect(Object.keys(operation.responses), operation.operationId).toContain('400');
      else expect(['listBibleVersions', 'getHealth', 'getReadiness']).toContain(operation.operationId);
    }
  });

  it('gives every 4xx and 5xx a problem+json Problem body, with real problems of the catalogue as examples', () => {
    const slugs = new Set<string>(ALL_PROBLEM_TYPES.map((type) => type.slug));
    const seen = new Set<string>();
    for (const operation of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(Object.keys(response.content ?? {}), `${operation.operationId} ${status}`).toEqual([PROBLEM_CONTENT_TYPE]);
        const media = response.content![PROBLEM_CONTENT_TYPE];
        expect(media.schema).toEqual({ $ref: '#/components/schemas/Problem' });
        for (const { value } of Object.values(media.examples ?? {})) {
          const body = value as { type: string; status: number };
          expect(body.status, `${operation.operationId} ${status}`).toBe(Number(status));
          expect(validator.errors(media.schema, body)).toEqual([]);
          const slug = body.type.replace('https://api.example.org/docs/problems#', '');
          expect(slugs.has(slug), slug).toBe(true);
          seen.add(slug);
        }
      }
    }
    // Every type but those of no operation: 405 and 404 for paths the document does not list, and /mcp's (not in its paths).
    expect([...slugs].filter((slug) => !seen.has(slug)).sort()).toEqual([
      'mcp-post-only',
      'mcp-rate-limited',
      'method-not-allowed',
      'path-not-found',
    ]);
  });

  it("accepts as a problem type only the catalogue's URIs under this server's base URL", () => {
    const problem = { title: 'Unknown church', status: 404, detail: 'No public church has this slug.' };
    const schema = { $ref: '#/components/schemas/Problem' };
    expect(validator.errors(schema, { ...problem, type: 'https://api.example.org/docs/problems#church-not-found' })).toEqual([]);
    expect(validator.errors(schema, { ...problem, type: 'https://api.example.org/docs/problems#no-such-type' })).not.toEqual([]);
    expect(validator.errors(schema, { ...problem, type: 'https://elsewhere.example/docs/problems#church-not-found' })).not.toEqual([]);
    expect(validator.errors(schema, { ...problem, type: 'https://api.example.org/docs/problems#church-not-found', extra: 1 })).not.toEqual(
      [],
    );
  });
});

describe('the examples of the document', () => {
  it('each holds against its schema (JSON Schema 2020-12, formats checked)', () => {
    let count = 0;
    for (const operation of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          const values = media.examples === undefined ? [media.example] : Object.values(media.examples).map((example) => example.value);
          for (const value of values) {
            expect(value, `${operation.operationId} ${status}`).toBeDefined();
            expect(validator.errors(media.schema, value), `${operation.operationId} ${status}`).toEqual([]);
            count += 1;
          }
        }
      }
    }
    expect(count).toBeGreaterThan(100);
  });
});
