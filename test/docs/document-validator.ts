// Test helper: checks values against the schemas of an OpenAPI document with ajv (JSON Schema 2020-12, formats checked).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

export interface DocumentValidator {
  /**
   * The errors of `value` against a schema of the document (a `$ref` into it or an inline schema
   * with `$ref`s), as "path: message" lines; empty when it passes.
   */
  errors(schema: Json, value: unknown): string[];
}

const DOCUMENT_ID = 'https://openapi.test/document.json';

/** A validator over `document`'s components; strict, so a keyword ajv does not know fails loudly. */
export function documentValidator(document: Json): DocumentValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats.default(ajv);
  // Not a keyword: where the document keeps its schemas, so that its own `#/components/...` refs resolve.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: DOCUMENT_ID, components: (document as { components: Json }).components });
  const compiled = new Map<string, ValidateFunction>();
  return {
    errors(schema, value) {
      const key = JSON.stringify(schema);
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(rebased(schema));
        compiled.set(key, validate);
      }
      if (validate(value)) return [];
      return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message}`);
    },
  };
}

/** The schema with its `#/components/...` refs pointing into the document added to ajv. */
function rebased(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' ? `${DOCUMENT_ID}${value}` : value,
  );
}
