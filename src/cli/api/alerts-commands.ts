import { unwrap } from '../../client/api-client.js';
import { UsageError } from '../../core/cli/args.js';
import type { ApiCommand } from './command.js';
import { credits, fields, printList, printObject, when } from './print.js';

const percents = (v: unknown, flag: string): number[] | undefined => {
  if (typeof v !== 'string') return undefined;
  if (v.trim() === '' || v === 'none') return [];
  const list = v.split(',').map((x) => Number(x.trim()));
  if (list.some((n) => !Number.isInteger(n))) throw new UsageError(`--${flag} takes percents separated by commas (50,80,100), or none.`);
  return list;
};

const alertsList: ApiCommand = {
  name: 'alerts list',
  summary: "Usage alerts, newest first: all of them for owners and managers (--mine: one's own), one's own for everyone else.",
  flags: {
    mine: { type: 'boolean', description: 'Only your own alerts' },
    limit: { type: 'string', value: 'N', description: 'At most this many (1 to 100, default 50)' },
  },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const limit = ctx.values.limit === undefined ? undefined : Number(ctx.values.limit);
    const body = await unwrap(ctx.api().GET('/api/v0/alerts', { params: { query: { limit: limit ?? 50, ...(ctx.values.mine ? { mine: true } : {}) } } }));
    const rows = body.alerts.map((a) => ({
      when: when(a.createdAt),
      scope: a.scope,
      name: a.scopeName,
      threshold: `${a.threshold}%`,
      used: ctx.output === 'table' ? credits(a.used) : a.used,
      limit: ctx.output === 'table' ? credits(a.limit) : a.limit,
      period: a.periodStart,
    }));
    printList(ctx, body, rows);
    return 0;
  },
};

const alertsSettings: ApiCommand = {
  name: 'alerts settings',
  summary: 'The alert thresholds per kind of scope and the organization budget; with flags, changes them (owner or manager).',
  flags: {
    person: { type: 'string', value: 'PERCENTS', description: "Thresholds of a person's limit, e.g. 50,80,100 (none: no alerts)" },
    team: { type: 'string', value: 'PERCENTS', description: "Thresholds of a team's budget" },
    organization: { type: 'string', value: 'PERCENTS', description: "Thresholds of the organization's budget" },
    'organization-budget': { type: 'string', value: 'CREDITS', description: 'Monthly credits of the whole organization (at least 1000000), or none' },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const api = ctx.api();
    let s = await unwrap(api.GET('/api/v0/organization/alerts/settings'));
    const budget = ctx.values['organization-budget'];
    const changes = {
      personThresholds: percents(ctx.values.person, 'person'),
      teamThresholds: percents(ctx.values.team, 'team'),
      organizationThresholds: percents(ctx.values.organization, 'organization'),
    };
    if (Object.values(changes).some((c) => c !== undefined) || budget !== undefined) {
      s = await unwrap(
        api.PUT('/api/v0/organization/alerts/settings', {
          body: {
            personThresholds: changes.personThresholds ?? s.personThresholds,
            teamThresholds: changes.teamThresholds ?? s.teamThresholds,
            organizationThresholds: changes.organizationThresholds ?? s.organizationThresholds,
            organizationBudget: budget === undefined ? s.organizationBudget : budget === 'none' ? null : Number(budget),
          },
        }),
      );
    }
    const pct = (xs: number[]) => (xs.length ? xs.map((x) => `${x}%`).join(', ') : 'none');
    printObject(
      ctx,
      s,
      fields([
        ['person', pct(s.personThresholds)],
        ['team', pct(s.teamThresholds)],
        ['organization', pct(s.organizationThresholds)],
        ['organization budget', credits(s.organizationBudget)],
      ]),
    );
    return 0;
  },
};

export const alertsCommands: readonly ApiCommand[] = [alertsList, alertsSettings];
