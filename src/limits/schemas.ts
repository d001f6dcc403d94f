import { Type } from '@sinclair/typebox';
import { UuidParam } from '../core/http/params.js';

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

/** The organization's enforcement policy: what the client-side hook does as a person nears or reaches their limit. */
export const EnforcementPolicy = Type.Object(
  {
    mode: Type.Union([Type.Literal('off'), Type.Literal('warn'), Type.Literal('block')], {
      description: 'off: limits are advisory; warn: warn at each threshold and at the limit; block: warn at each threshold, refuse prompts at the limit',
    }),
    thresholds: Type.Array(Type.Integer({ minimum: 1, maximum: 100 }), {
      maxItems: 5,
      uniqueItems: true,
      description: 'Percents of the limit at which the hook warns, strictly ascending (0 to 5 of them)',
    }),
    unreachable: Type.Union([Type.Literal('open'), Type.Literal('closed')], {
      description: 'When the hook cannot reach the service: open lets prompts through, closed refuses them (mode block only)',
    }),
  },
  { additionalProperties: false },
);

export const AllowanceQuery = Type.Object({
  user_id: Type.Optional(Type.String({ format: 'uuid', description: "Another user's allowance (owners and managers); default: the caller's own" })),
  email: Type.Optional(
    Type.String({ format: 'email', maxLength: 320, description: "Another user's allowance by their email (owners and managers); not with user_id" }),
  ),
});
const Credits = Type.Integer({ minimum: 0 });
const Forecast = Type.Object(
  {
    dailyRate: Type.Union([Credits, Type.Null()], {
      description: 'Mean credits a day over the last complete days of the month (at most 7), rounded; null on the 1st (no complete day yet)',
    }),
    projectedUsed: Type.Union([Credits, Type.Null()], { description: 'Used so far plus dailyRate for each day left after today; null without a rate' }),
    limitReachedOn: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'The day (UTC) the limit is reached at that rate: today when already reached; null without a limit, without a rate, or after this month',
    }),
  },
  { description: 'Where the month is heading at the recent daily rate (docs/usage-limits.md, Forecast)' },
);
const Budget = Type.Object({
  scope: Type.Union([Type.Literal('user'), Type.Literal('global'), Type.Literal('team')], {
    description: "user: the person's individual limit; global: the limit for everyone (when they have none of their own); team: a team's budget",
  }),
  teamId: Type.Optional(Type.String({ format: 'uuid' })),
  teamName: Type.Optional(Type.String()),
  limit: Credits,
  used: Type.Integer({ minimum: 0, description: "Standard Credits used in the period: the person's own, or all the team's members' together" }),
  remaining: Credits,
  forecast: Forecast,
});
export const Allowance = Type.Object({
  limit: Type.Union([Credits, Type.Null()], { description: 'Of the budget that binds; null when none applies' }),
  source: Type.Union([Type.Literal('individual'), Type.Literal('global'), Type.Literal('team'), Type.Literal('none')], {
    description: 'The budget that binds: the one with the least remaining (docs/usage-limits.md)',
  }),
  teamId: Type.Optional(Type.String({ format: 'uuid', description: 'When a team budget binds' })),
  teamName: Type.Optional(Type.String({ description: 'When a team budget binds' })),
  used: Type.Integer({ minimum: 0, description: "Standard Credits used in the period, of the budget that binds (the person's own when none does)" }),
  remaining: Type.Union([Credits, Type.Null()]),
  budgets: Type.Optional(
    Type.Array(Budget, {
      description:
        "Every budget that applies this month: the person's (individual, else global) first, then their teams' by name. Absent for a key scoped to allowance:read, as are forecast and organization",
    }),
  ),
  periodStart: Type.String({ format: 'date-time', description: 'Start of the calendar month (UTC), inclusive' }),
  periodEnd: Type.String({ format: 'date-time', description: 'Start of the next calendar month (UTC), exclusive' }),
  enforcement: EnforcementPolicy,
  forecast: Type.Optional(Forecast),
  organization: Type.Optional(
    Type.Union(
      [Type.Object({ used: Type.Integer({ minimum: 0, description: "Every principal's credits this month together" }), forecast: Forecast }), Type.Null()],
      { description: "The organization's use this month and its forecast, for owners and managers reading their own allowance; null otherwise" },
    ),
  ),
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
      scope: Type.Union([Type.Literal('global'), Type.Literal('user'), Type.Literal('policy'), Type.Literal('team')], {
        description: "global: the limit for everyone; user: an individual limit; policy: the enforcement policy; team: a team's monthly budget",
      }),
      targetEmail: Type.Union([Type.String(), Type.Null()]),
      targetTeamId: Type.Union([Type.String(), Type.Null()], {
        description: 'The team of a team entry; null once the team is deleted for good, and for other entries',
      }),
      targetTeamName: Type.Union([Type.String(), Type.Null()], { description: "The team's name when its budget changed; null for other entries" }),
      oldLimit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null for a policy entry' }),
      newLimit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null for a policy entry' }),
      oldPolicy: Type.Union([EnforcementPolicy, Type.Null()], {
        description: 'The policy before a policy entry (the defaults if never set); null for limit entries',
      }),
      newPolicy: Type.Union([EnforcementPolicy, Type.Null()], { description: 'The policy after a policy entry; null for limit entries' }),
      changedAt: Type.Integer({ description: 'Unix time in milliseconds' }),
    }),
  ),
});

export const TeamBudgetParams = Type.Object({ teamId: UuidParam('Team', 'team_not_found') });
export const TeamBudgetBody = Type.Object({ limit: LimitValue }, { additionalProperties: false });
export const TeamBudgetResult = Type.Object({ teamId: Type.String({ format: 'uuid' }), teamName: Type.String(), limit: ResponseLimit });
export const TeamBudgets = Type.Object({
  teams: Type.Array(Budget, { description: 'The teams with a budget, by name, with what their members used this month together' }),
});
