// The RFC 9457 problem body every error carries, from the service and from the generated host files alike, as a schema.
import { type Static, Type } from '@sinclair/typebox';
import { PROBLEMS_PAGE_PATH } from './http-policy.ts';

/** The body of every 4xx and 5xx answer; `problemBody` (problems.ts) makes it from a problem of the catalogue. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({
      format: 'uri',
      description: `The kind of problem: an anchor of the service's ${PROBLEMS_PAGE_PATH} page, which says what to do about it. Tell problems apart by it.`,
    }),
    title: Type.String({ description: 'Short and the same for every occurrence of the type.' }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status of the response.' }),
    detail: Type.String({ description: 'Explains this occurrence; its wording may change.' }),
    parameter: Type.Optional(Type.String({ description: 'The query or path parameter at fault, when there is one.' })),
  },
  { $id: 'Problem', additionalProperties: false, description: 'RFC 9457 problem details.' },
);

export type ProblemBody = Static<typeof ProblemSchema>;
