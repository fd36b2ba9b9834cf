// Types shared by the parts of the OpenAPI document: JSON objects, the settings its figures come from, and what every part is given.
import type { DocumentSettings } from '../../http/endpoint.ts';
import type { Json, SchemaComponents } from './schema-components.ts';

export type { Json };

/** The settings the document states: addresses, and the limits its text and headers quote (what an endpoint's documentation may quote). */
export type OpenApiConfig = DocumentSettings;

/** What each part of the document is built from. */
export interface DocumentParts {
  config: OpenApiConfig;
  /** The document's schema components, filled as the operations refer to schemas. */
  components: SchemaComponents;
}
