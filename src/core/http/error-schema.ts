import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorObject = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable message' }),
    status: Type.Integer({ description: 'HTTP status code' }),
    title: Type.String({ description: 'HTTP status title' }),
    metadata: Type.Object(
      {
        code: Type.String({
          description: 'The machine-readable error code (docs/errors.md lists them all), e.g. computer_not_found, install_running, validation_failed',
        }),
      },
      {
        additionalProperties: true,
        description: 'The error code, and extra data where the code says so: `errors` lists validation problems as {path, message}',
      },
    ),
    requestId: Type.Optional(Type.String({ description: 'Equals the x-request-id response header' })),
  },
  { $id: 'ErrorObject', title: 'ErrorObject' },
);

const describe: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credential',
  403: 'Role not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported content type',
  429: 'Too many requests (Retry-After says when to try again)',
  502: 'Upstream failure',
  503: 'Unavailable (Retry-After says when to try again)',
};

/** Response entries for the listed error statuses (and 500), for a route's schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of [...statuses, 500]) out[s] = Type.Ref(ErrorObject, { description: describe[s] ?? 'Internal error' });
  return out;
}
