// The bodies of /healthz and /readyz as schemas: their TypeScript types and the OpenAPI components come from here.
import { type Static, Type } from '@sinclair/typebox';

/** /healthz: the process is up and its event loop answers. */
export const HealthSchema = Type.Object(
  { status: Type.Literal('ok') },
  { $id: 'Health', additionalProperties: false, description: 'The process is up; nothing else is checked.' },
);

export const ReadinessCheckSchema = Type.Object(
  {
    name: Type.String({
      description: 'The check: `database`, `bible` (unless READYZ_BIBLE=false), and `redis` when REDIS_URL is set.',
      examples: ['database'],
    }),
    ok: Type.Boolean(),
    detail: Type.Optional(
      Type.String({ description: 'When ready, a note (the Bible build hash); when not, the reason.', examples: ['build 3f1c9a…'] }),
    ),
    ms: Type.Number({ minimum: 0, description: 'Time the check took, in milliseconds.' }),
  },
  { $id: 'ReadinessCheck', additionalProperties: false },
);

/** /readyz when every check passed. */
export const ReadinessSchema = Type.Object(
  {
    status: Type.Literal('ready'),
    checks: Type.Array(ReadinessCheckSchema),
  },
  { $id: 'Readiness', additionalProperties: false, description: 'Every readiness check passed.' },
);

export type Health = Static<typeof HealthSchema>;
export type Readiness = Static<typeof ReadinessSchema>;
