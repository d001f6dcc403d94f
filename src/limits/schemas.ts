import { Type } from '@sinclair/typebox';

export const MIN_LIMIT = 1_000_000;

/** A limit in a request: an integer of at least 1,000,000 credits (and a safe JSON integer), or null to remove it. */
export const LimitValue = Type.Union([Type.Integer({ minimum: MIN_LIMIT, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()], {
  description: 'Standard Credits per user per calendar month (UTC); null removes the limit',
});
const ResponseLimit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);
const Email = Type.String({ format: 'email', maxLength: 320 });

export const GlobalLimitBody = Type.Object({ limit: LimitValue }, { additionalProperties: false });
export const GlobalLimit = Type.Object({ limit: ResponseLimit });

export const UserLimitsBody = Type.Object(
  {
    users: Type.Array(Type.Object({ email: Email, limit: LimitValue }, { additionalProperties: false }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);
export const UserLimits = Type.Object({
  global: ResponseLimit,
  users: Type.Array(Type.Object({ email: Type.String(), limit: Type.Integer({ minimum: 0 }) })),
});
export const UserLimitsResult = Type.Object({
  updated: Type.Array(Type.Object({ email: Type.String(), limit: ResponseLimit })),
  errors: Type.Array(Type.Object({ email: Type.String(), error: Type.String() })),
});

export const AllowanceQuery = Type.Object({
  user_id: Type.Optional(Type.String({ format: 'uuid', description: "Another user's allowance (owners and managers); default: the caller's own" })),
});
export const Allowance = Type.Object({
  limit: ResponseLimit,
  source: Type.Union([Type.Literal('individual'), Type.Literal('global'), Type.Literal('none')]),
  used: Type.Integer({ minimum: 0, description: 'Standard Credits used in the period' }),
  remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  periodStart: Type.String({ format: 'date-time', description: 'Start of the calendar month (UTC), inclusive' }),
  periodEnd: Type.String({ format: 'date-time', description: 'Start of the next calendar month (UTC), exclusive' }),
});

export const AuditQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  before: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Return entries with an id below this one (the last id of the previous page)' }),
  ),
});
export const AuditLog = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.Integer(),
      actorId: Type.Union([Type.String(), Type.Null()]),
      actorEmail: Type.Union([Type.String(), Type.Null()]),
      scope: Type.Union([Type.Literal('global'), Type.Literal('user')]),
      targetEmail: Type.Union([Type.String(), Type.Null()]),
      oldLimit: ResponseLimit,
      newLimit: ResponseLimit,
      changedAt: Type.Integer({ description: 'Unix time in milliseconds' }),
    }),
  ),
});
