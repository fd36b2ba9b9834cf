// Test helper: an OpenAPI 3.1 document compiled into one check of a received response (status, media type, body by ajv).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/** One response as a test received it, its body already decoded (no Content-Encoding left). */
export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  /** The Content-Type header, or null when there is none. */
  contentType: string | null;
  /** The body as text; empty for HEAD, 204 and 304. */
  body: string;
}

/** The document, compiled: what a response must be to be described by it. */
export interface Contract {
  /** What differs between the response (at `path`, without the query) and the document, or undefined when it is described. */
  mismatch(observed: ObservedResponse & { path: string }): string | undefined;
}

type Json = Record<string, unknown>;

interface Operation {
  /** The path template of the document, e.g. /api/v1/bible/{abbr}/{chapter}. */
  template: string;
  pattern: RegExp;
  /** Literal segments: a template with more of them is the more specific one (/search before /{abbr}). */
  literals: number;
  /** Lower-case method → documented responses by status key ('200', '4XX', 'default'). */
  methods: Map<string, Record<string, Json>>;
}

/** Where the service serves its document: the one /api/ path that is no operation of it. */
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** The id the document is registered under in ajv, so `#/components/schemas/…` references resolve inside it. */
const DOCUMENT_ID = 'openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Compiles the document's response schemas (lazily, once each) and returns the check that
 * apiFetch and checkResponse run on every response.
 */
export function compileContract(document: Json): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  // The whole document is one schema resource, so `#/components/schemas/…` references resolve inside it.
  ajv.addSchema(document, DOCUMENT_ID);
  const operations = operationsOf(document);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = validators.get(pointer);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      validators.set(pointer, validate);
    }
    return validate;
  };
  const problemPointer = '/components/schemas/Problem';

  return {
    mismatch(observed) {
      const mediaType = observed.contentType?.split(';')[0].trim().toLowerCase() ?? null;
      const operation = operations.find((candidate) => candidate.pattern.test(observed.path));
      // HEAD is answered as GET without a body (HTTP semantics): it is checked against the GET operation.
      const method = observed.method.toLowerCase() === 'head' ? 'get' : observed.method.toLowerCase();
      const responses = operation?.methods.get(method);
      if (operation === undefined || responses === undefined) return mismatchOutsideOperations(observed, mediaType);

      const statusKey = [String(observed.status), `${String(observed.status)[0]}XX`, 'default'].find((key) => key in responses);
      const where = `${method.toUpperCase()} ${operation.template}`;
      if (statusKey === undefined) {
        return `status ${observed.status} is not documented for ${where} (documented: ${Object.keys(responses).join(', ')})`;
      }
      const content = (responses[statusKey].content ?? {}) as Record<string, Json>;
      const documentedTypes = Object.keys(content);
      if (documentedTypes.length === 0) {
        return observed.body === ''
          ? undefined
          : `${where} documents no body for ${statusKey}, but one was sent: ${excerpt(observed.body)}`;
      }
      if (mediaType === null || !documentedTypes.includes(mediaType)) {
        return `Content-Type ${observed.contentType ?? '(none)'} differs from the documented ${documentedTypes.join(' or ')} for ${statusKey} of ${where}`;
      }
      if (observed.method === 'HEAD') return undefined;
      const pointer = `/paths/${escapePointer(operation.template)}/${method}/responses/${statusKey}/content/${escapePointer(mediaType)}/schema`;
      // A text media type (text/calendar) is documented as a string schema: the body is that string.
      const isJson = mediaType === 'application/json' || mediaType.endsWith('+json');
      const body = isJson ? observed.body : JSON.stringify(observed.body);
      return bodyMismatch(validatorAt(pointer), body, `the ${statusKey} schema of ${where}`);
    },
  };

  /** Off the documented operations (405s, /docs, unknown paths): errors must be Problems; successes under /api/ must be documented. */
  function mismatchOutsideOperations(observed: ObservedResponse & { path: string }, mediaType: string | null): string | undefined {
    if (observed.status >= 400) {
      if (mediaType !== PROBLEM_MEDIA_TYPE)
        return `an error answered with Content-Type ${observed.contentType ?? '(none)'}, not ${PROBLEM_MEDIA_TYPE}`;
      if (observed.method === 'HEAD') return undefined;
      return bodyMismatch(validatorAt(problemPointer), observed.body, 'the Problem schema');
    }
    const readsApi = observed.method === 'GET' || observed.method === 'HEAD';
    if (readsApi && observed.path.startsWith('/api/') && observed.path !== OPENAPI_DOCUMENT_PATH) {
      return `${observed.path} answered ${observed.status} but the document has no GET operation for it`;
    }
    return undefined;
  }
}

function operationsOf(document: Json): Operation[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const operations = Object.entries(paths).map(([template, item]) => {
    const segments = template.split('/').slice(1);
    const source = segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/');
    const methods = new Map<string, Record<string, Json>>();
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) {
        methods.set(method, (operation.responses ?? {}) as Record<string, Json>);
      }
    }
    return {
      template,
      pattern: new RegExp(`^/${source}$`),
      literals: segments.filter((segment) => !segment.startsWith('{')).length,
      methods,
    };
  });
  return operations.sort((a, b) => b.literals - a.literals);
}

function bodyMismatch(validate: ValidateFunction, body: string, schemaName: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `the body is not JSON: ${excerpt(body)}`;
  }
  if (validate(parsed)) return undefined;
  return `the body does not match ${schemaName}:\n${formatErrors(validate.errors ?? [])}\nbody: ${excerpt(body)}`;
}

function formatErrors(errors: ErrorObject[]): string {
  return errors
    .slice(0, 10)
    .map((error) => `  ${error.instancePath || '(root)'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`)
    .join('\n');
}

function excerpt(body: string): string {
  return body.length > 400 ? `${body.slice(0, 400)}…` : body;
}

/** A JSON pointer token: `~` and `/` escaped (RFC 6901). */
function escapePointer(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
