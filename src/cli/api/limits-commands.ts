import { UsageError } from '../../core/cli/args.js';
import { unwrap } from '../../client/api-client.js';
import { flag, integerFlag, type ApiCommand, type CommandContext } from './command.js';
import { fields, printList, printObject, when } from './print.js';

const credits = (n: number | null) => (n === null ? 'none' : n.toLocaleString('en-US'));

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
function limitValue(ctx: CommandContext): number | null {
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

export const limitsAllowance: ApiCommand = {
  name: 'limits allowance',
  summary: 'Your own allowance this month: the limit that applies, what you used and what remains.',
  outputs: ['table', 'json'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/usage/allowance'));
    printObject(
      ctx,
      body,
      fields([
        ['limit', `${credits(body.limit)} (${body.source})`],
        ['used', credits(body.used)],
        ['remaining', credits(body.remaining)],
        ['period', `${body.periodStart} to ${body.periodEnd}`],
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
    const rows = ctx.output === 'table' ? entries.map((e) => ({ ...e, changedAt: when(e.changedAt) })) : entries;
    printList(ctx, { entries }, rows);
    return 0;
  },
};

export const limitsCommands = [limitsGet, limitsSet, limitsUsers, limitsAllowance, limitsAudit];
