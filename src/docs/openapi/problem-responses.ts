// Error responses of the document: each lists the problem types it can carry, with bodies made by the catalogue's own constructors.
import { PROBLEM_CONTENT_TYPE } from '../../../build/contract/http-policy.ts';
import { ProblemSchema } from '../../../build/contract/problem-body.ts';
import { type Problem, problemBody, problemTypeUri } from '../../../build/contract/problems.ts';
import { ApiError } from '../../http/problem.ts';
import { problemTypeUriPattern } from '../../http/problems.ts';
import type { DocumentParts, Json } from './types.ts';

/**
 * A response whose body is a problem of one of `examples`' types: the schema is the Problem
 * component (its `type` matches only the catalogue's URIs under this server's base URL), and each
 * example is a real body, named after its type and parameter.
 */
export function problemResponse(parts: DocumentParts, description: string, examples: readonly Problem[], headers: Json = {}): Json {
  const statuses = new Set(examples.map((problem) => problem.status));
  if (statuses.size !== 1) throw new Error(`One response, one status: ${description} mixes ${[...statuses].join(', ')}.`);
  const slugs = [...new Set(examples.map((problem) => problem.type))];
  const names = examples.map((problem) => (problem.parameter === undefined ? problem.type : `${problem.type}-${problem.parameter}`));
  if (new Set(names).size !== names.length) throw new Error(`${description}: two examples of one problem type and parameter.`);
  return {
    description: `${description}\n\nProblem types: ${slugs.map((slug) => `[${slug}](${problemTypeUri(parts.config.publicBaseUrl, slug)})`).join(', ')}.`,
    headers,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: parts.components.ref(problemSchema(parts.config.publicBaseUrl)),
        examples: Object.fromEntries(
          examples.map((problem, index) => [
            names[index],
            { summary: problem.title, value: problemBody(problem, parts.config.publicBaseUrl) },
          ]),
        ),
      },
    },
  };
}

/**
 * The problem a piece of the service's own code throws, for an example that is exactly what it answers.
 *
 * @example thrownProblem(() => parsePageRequest({ size: '0' })).parameter // 'size'
 */
export function thrownProblem(run: () => unknown): Problem {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.problem;
    throw error;
  }
  throw new Error('Expected the example input to be refused.');
}

/** The Problem schema with `type` narrowed to the catalogue's URIs under `publicBaseUrl`. */
function problemSchema(publicBaseUrl: string): typeof ProblemSchema {
  return {
    ...ProblemSchema,
    properties: { ...ProblemSchema.properties, type: { ...ProblemSchema.properties.type, pattern: problemTypeUriPattern(publicBaseUrl) } },
  };
}
