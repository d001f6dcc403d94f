import { UsageError } from '../../core/cli/args.js';
import { unwrap, type paths } from '../../client/api-client.js';
import { flag, integerFlag, type ApiCommand, type CommandContext } from './command.js';
import { credits, fields, printList, printObject, when } from './print.js';

type Policy = paths['/api/v0/organization/usage/enforcement']['get']['responses'][200]['content']['application/json'];
const thresholdsText = (t: number[]) => (t.length === 0 ? 'none' : t.map((p) => `${p}%`).join(', '));
const policyLines = (p: Policy): [string, string][] => [
  ['mode', p.mode],
  ['thresholds', thresholdsText(p.thresholds)],
  ['unreachable', p.unreachable],
];
/** One line for a table cell: `block; 80%, 95%; open`. */
const policyCell = (p: Policy | null) => (p === null ? '' : `${p.mode}; ${thresholdsText(p.thresholds)}; ${p.unreachable}`);

export const limitsGet: ApiCommand = {
  name: 'limits get',
  summary: 'The organization-wide monthly limit in Standard Credits per user (none when unset).',
  outputs: ['table', 'json'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/usage/limits/global'));
    printObject(ctx, body, fields([['global limit', credits(body.limit)]]));
    return 0;
  },
};

/** --limit N, or `none` to remove the limit. */
export function limitValue(ctx: CommandContext): number | null {
  const raw = flag(ctx, 'limit');
  if (raw === undefined) throw new UsageError('Missing --limit: a number of Standard Credits per month (at least 1,000,000), or none.');
  if (raw === 'none') return null;
  return integerFlag(ctx, 'limit') as number;
}

export const limitsSet: ApiCommand = {
  name: 'limits set',
  summary: 'Set the global monthly limit, or with --email the individual limits of those users (owner or manager).',
  flags: {
    limit: { type: 'string', value: 'N|none', description: 'Standard Credits per user per month (at least 1,000,000), or none to remove it' },
    email: { type: 'string', value: 'EMAIL', multiple: true, description: 'A user whose individual limit to set (up to 100)' },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const limit = limitValue(ctx);
    const emails = (ctx.values.email as string[] | undefined) ?? [];
    if (emails.length === 0) {
      const body = await unwrap(ctx.api().PUT('/api/v0/organization/usage/limits/global', { body: { limit } }));
      printObject(ctx, body, [`Global limit set to ${credits(body.limit)}.`]);
      return 0;
    }
    const body = await unwrap(ctx.api().PUT('/api/v0/organization/usage/limits/users', { body: { users: emails.map((email) => ({ email, limit })) } }));
    printObject(ctx, body, [...body.updated.map((u) => `${u.email}: ${credits(u.limit)}`), ...body.errors.map((e) => `${e.email}: not set (${e.error})`)]);
    // Partly refused: the caller must notice in a script.
    return body.errors.length > 0 ? 1 : 0;
  },
};

export const limitsUsers: ApiCommand = {
  name: 'limits users',
  summary: 'The users with an individual limit, and the global limit.',
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/usage/limits/users'));
    if (ctx.output === 'table') process.stdout.write(`Global limit: ${credits(body.global)}\n`);
    printList(ctx, body, body.users);
    return 0;
  },
};

type Forecast = NonNullable<paths['/api/v0/usage/allowance']['get']['responses'][200]['content']['application/json']['forecast']>;
/** `month end 1,470,000 at 50,000/day, limit reached 2026-11-21` (docs/usage-limits.md, Forecast). */
function forecastText(f: Forecast): string {
  if (f.dailyRate === null) return 'no forecast before the first complete day of the month';
  const reached = f.limitReachedOn === null ? '' : `, limit reached ${f.limitReachedOn}`;
  return `month end ${credits(f.projectedUsed)} at ${credits(f.dailyRate)}/day${reached}`;
}

export const limitsAllowance: ApiCommand = {
  name: 'limits allowance',
  summary: 'Your own allowance this month: the limit that applies, what you used, what remains and where the month is heading at the recent rate.',
  outputs: ['table', 'json'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/usage/allowance'));
    printObject(
      ctx,
      body,
      fields([
        ['limit', `${credits(body.limit)} (${body.source === 'team' ? `team ${body.teamName}` : body.source})`],
        ['used', credits(body.used)],
        ['remaining', credits(body.remaining)],
        ['period', `${body.periodStart} to ${body.periodEnd}`],
        ...(body.forecast ? [['forecast', forecastText(body.forecast)] as [string, string]] : []),
        ...(body.budgets ?? []).map((b): [string, string] => [
          b.scope === 'team' ? `budget of team ${b.teamName}` : `${b.scope === 'user' ? 'individual' : 'global'} limit`,
          `${credits(b.used)} used of ${credits(b.limit)}, ${credits(b.remaining)} remaining; ${forecastText(b.forecast)}`,
        ]),
        ...(body.organization
          ? [['organization', `${credits(body.organization.used)} used; ${forecastText(body.organization.forecast)}`] as [string, string]]
          : []),
        ...policyLines(body.enforcement).map(([k, v]): [string, string] => [`enforcement ${k}`, v]),
      ]),
    );
    return 0;
  },
};

export const limitsAudit: ApiCommand = {
  name: 'limits audit',
  summary: 'Changes of limits, newest first: who changed what from which value to which.',
  flags: {
    limit: { type: 'string', value: 'N', description: 'Entries per page, 1 to 100 (default 50)' },
    before: { type: 'string', value: 'ID', description: 'Only entries with an id below this one (the last id of the previous page)' },
    all: { type: 'boolean', description: 'Every page to the end' },
  },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const limit = integerFlag(ctx, 'limit') ?? 50;
    let before = integerFlag(ctx, 'before');
    const entries = [];
    for (;;) {
      const page = await unwrap(ctx.api().GET('/api/v0/organization/usage/limits/audit', { params: { query: { limit, ...(before ? { before } : {}) } } }));
      entries.push(...page.entries);
      const last = page.entries.at(-1);
      if (!ctx.values.all || page.entries.length < limit || !last) break;
      before = last.id;
    }
    const rows =
      ctx.output === 'table'
        ? entries.map((e) => ({ ...e, changedAt: when(e.changedAt), oldPolicy: policyCell(e.oldPolicy), newPolicy: policyCell(e.newPolicy) }))
        : entries;
    printList(ctx, { entries }, rows);
    return 0;
  },
};

/** --thresholds 80,95 (or none): whole percents; the service checks their range and order. */
function thresholdsFlag(raw: string): number[] {
  if (raw.trim() === 'none' || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    if (!/^\s*\d+\s*$/.test(part)) throw new UsageError(`--thresholds must be whole percents separated by commas (80,95), or none; got ${raw}.`);
    return Number(part);
  });
}

export const limitsEnforcement: ApiCommand = {
  name: 'limits enforcement',
  summary: "The organization's enforcement policy; with set, change it (owner or manager): the flags given replace, the others stay.",
  positionals: [{ name: 'set', description: 'Change the policy with the flags below instead of showing it', optional: true }],
  flags: {
    mode: {
      type: 'string',
      value: 'MODE',
      choices: ['off', 'warn', 'block'],
      description: 'off: advisory; warn: warn only; block: refuse prompts at the limit',
    },
    thresholds: { type: 'string', value: 'LIST', description: 'Percents of the limit to warn at, ascending: 80,95 (up to 5), or none' },
    unreachable: {
      type: 'string',
      value: 'WHAT',
      choices: ['open', 'closed'],
      description: 'When the service cannot be reached: let prompts through, or refuse them',
    },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const [action] = ctx.positionals;
    const changes = {
      ...(typeof ctx.values.mode === 'string' ? { mode: ctx.values.mode as Policy['mode'] } : {}),
      ...(typeof ctx.values.thresholds === 'string' ? { thresholds: thresholdsFlag(ctx.values.thresholds) } : {}),
      ...(typeof ctx.values.unreachable === 'string' ? { unreachable: ctx.values.unreachable as Policy['unreachable'] } : {}),
    };
    if (action !== undefined && action !== 'set') throw new UsageError(`Unexpected argument: ${action} (only set).`);
    if (action === undefined && Object.keys(changes).length > 0) throw new UsageError('To change the policy: orgctl limits enforcement set --mode …');
    if (action === 'set' && Object.keys(changes).length === 0) throw new UsageError('Nothing to set: give --mode, --thresholds or --unreachable.');
    const current = await unwrap(ctx.api().GET('/api/v0/organization/usage/enforcement'));
    if (action === undefined) {
      printObject(ctx, current, fields(policyLines(current)));
      return 0;
    }
    const body = await unwrap(ctx.api().PUT('/api/v0/organization/usage/enforcement', { body: { ...current, ...changes } }));
    printObject(ctx, body, ['Enforcement policy set.', ...fields(policyLines(body))]);
    return 0;
  },
};

export const limitsTeams: ApiCommand = {
  name: 'limits teams',
  summary: "The teams' monthly budgets, with what each team's members used this month together (owner, manager or member).",
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/usage/limits/teams'));
    const rows =
      ctx.output === 'table'
        ? body.teams.map((t) => ({
            team: t.teamName,
            budget: credits(t.limit),
            used: credits(t.used),
            remaining: credits(t.remaining),
            'month end': t.forecast.projectedUsed === null ? '' : credits(t.forecast.projectedUsed),
            'limit reached': t.forecast.limitReachedOn ?? '',
            id: t.teamId,
          }))
        : // A csv row is flat: the forecast's fields beside the budget's.
          body.teams.map(({ forecast, ...t }) => ({ ...t, ...forecast }));
    printList(ctx, body, rows);
    return 0;
  },
};

export const limitsCommands = [limitsGet, limitsSet, limitsUsers, limitsTeams, limitsAllowance, limitsAudit, limitsEnforcement];
