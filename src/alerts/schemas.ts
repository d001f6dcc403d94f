import { Type, type Static } from '@sinclair/typebox';

const Uuid = Type.String({ format: 'uuid' });

/** Percent of the budget, ascending; above 100 alerts an overrun. */
const Thresholds = Type.Array(Type.Integer({ minimum: 1, maximum: 1000 }), {
  minItems: 0,
  maxItems: 10,
  uniqueItems: true,
  description: 'Percent of the budget that applies, ascending (1 to 1000); empty: no alerts for this kind of scope',
});

const AlertScope = Type.Union([Type.Literal('organization'), Type.Literal('team'), Type.Literal('person')]);

export const Alert = Type.Object(
  {
    id: Uuid,
    scope: AlertScope,
    scopeId: Type.String({ format: 'uuid', description: "The person's or team's id, or the organization's" }),
    scopeName: Type.String({ description: "The person's email, the team's or the organization's name when the alert was made" }),
    threshold: Type.Integer({ description: 'Percent of the budget reached' }),
    limit: Type.Integer({ description: 'The budget (Standard Credits) the threshold is a percentage of' }),
    used: Type.Integer({ description: 'Standard Credits used in the period when the threshold was reached' }),
    periodStart: Type.String({ format: 'date', description: 'First day (UTC) of the calendar month of the alert' }),
    createdAt: Type.Integer({ minimum: 0, description: 'Unix ms' }),
  },
  { $id: 'Alert', title: 'Alert' },
);
export type AlertView = Static<typeof Alert>;

export const AlertsQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]+_[0-9a-f-]{36}$', description: 'nextCursor of the page before' })),
  mine: Type.Optional(Type.Boolean({ description: "Only the caller's own alerts (always so for members and guests)" })),
});
export type AlertsQuery = Static<typeof AlertsQuery>;

export const AlertList = Type.Object({
  alerts: Type.Array(Type.Ref(Alert), { description: 'Newest first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const AlertSettings = Type.Object(
  {
    personThresholds: Thresholds,
    teamThresholds: Thresholds,
    organizationThresholds: Thresholds,
    organizationBudget: Type.Union([Type.Integer({ minimum: 1_000_000 }), Type.Null()], {
      description: 'Standard Credits the whole organization may use per calendar month (UTC), for organization alerts; null: none',
    }),
  },
  { additionalProperties: false },
);
export type AlertSettings = Static<typeof AlertSettings>;
