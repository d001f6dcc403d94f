import { unwrap, type OrgctlClient } from '../../client/api-client.js';
import type { components } from '../../client/openapi-types.js';
import { UsageError } from '../../core/cli/args.js';
import { CliError } from '../../core/cli/cli-error.js';
import type { ApiCommand, CommandContext, FlagSpec } from './command.js';
import { limitValue } from './limits-commands.js';
import { credits, fields, printList, printObject, when } from './print.js';

type Team = components['schemas']['Team'];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** As the service compares names: any case, any Unicode composition. */
const nameKey = (name: string) => name.normalize('NFC').toLowerCase();

/** A team by id, else by name (names are unique regardless of case); deleted teams are not found. */
export async function findTeam(api: OrgctlClient, idOrName: string): Promise<Team> {
  const { teams } = await unwrap(api.GET('/api/v0/organization/teams'));
  const team = teams.find((t) => t.id === idOrName.toLowerCase()) ?? teams.find((t) => nameKey(t.name) === nameKey(idOrName));
  if (!team) throw new CliError(`No team ${JSON.stringify(idOrName)} in this organization. List its teams with: orgctl teams list`);
  return team;
}

/**
 * User ids for users named by id or email. Emails are looked up in the organization's members
 * (owner or manager, as every change of a team is); ids go to the service as they are, which
 * refuses one that is no user of the organization.
 */
async function userIds(api: OrgctlClient, users: string[]): Promise<string[]> {
  if (users.every((u) => UUID.test(u))) return users;
  const { members } = await unwrap(api.GET('/api/v0/organization/members'));
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m.id]));
  return users.map((u) => {
    if (UUID.test(u)) return u;
    const id = byEmail.get(u.trim().toLowerCase());
    if (id === undefined) throw new CliError(`No user ${u.trim().toLowerCase()} in this organization. List its users with: orgctl users list`);
    return id;
  });
}

const team = { name: 'TEAM', description: "The team's name (any case) or id" };
const user = { name: 'USER', description: "The user's email or id" };
const memberFlag: Record<string, FlagSpec> = { member: { type: 'string', value: 'USER', multiple: true, description: 'A member: email or user id' } };

const memberRows = (t: Team) => t.members.map((m) => ({ email: m.email, name: m.name, role: m.role, id: m.id }));

const memberLines = (t: Team) => t.members.map((m) => `  ${m.email} (${m.role})`);

function describe(t: Team): string[] {
  return [
    ...fields([
      ['id', t.id],
      ['name', t.name],
      ['monthly budget', credits(t.monthlyBudget)],
      ['created', when(t.createdAt)],
      ['updated', when(t.updatedAt)],
      ['members', t.members.length],
    ]),
    ...memberLines(t),
  ];
}

const teamsList: ApiCommand = {
  name: 'teams list',
  summary: 'The teams of the organization and their members (owner, manager or member).',
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/teams'));
    const rows = body.teams.map((t) => ({
      name: t.name,
      id: t.id,
      budget: ctx.output === 'table' ? credits(t.monthlyBudget) : t.monthlyBudget,
      members: ctx.output === 'table' ? t.members.length : t.members.map((m) => m.email),
      ...(ctx.output === 'table' ? { emails: t.members.map((m) => m.email).join(', ') } : {}),
      created: when(t.createdAt),
    }));
    printList(ctx, body, rows);
    return 0;
  },
};

const teamsGet: ApiCommand = {
  name: 'teams get',
  summary: 'A team and its members.',
  positionals: [team],
  outputs: ['table', 'json'],
  async run(ctx) {
    const t = await findTeam(ctx.api(), ctx.positionals[0] as string);
    printObject(ctx, t, describe(t));
    return 0;
  },
};

const teamsMembers: ApiCommand = {
  name: 'teams members',
  summary: 'The members of a team.',
  positionals: [team],
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const t = await findTeam(ctx.api(), ctx.positionals[0] as string);
    printList(ctx, { members: t.members }, memberRows(t));
    return 0;
  },
};

const teamsCreate: ApiCommand = {
  name: 'teams create',
  summary: 'Create a team, with members if given (owner or manager).',
  positionals: [{ name: 'NAME', description: 'Unique in the organization regardless of case: 1 to 100 characters' }],
  flags: memberFlag,
  outputs: ['table', 'json'],
  async run(ctx) {
    const api = ctx.api();
    const members = (ctx.values.member as string[] | undefined) ?? [];
    const ids = members.length ? await userIds(api, members) : undefined;
    const t = await unwrap(api.POST('/api/v0/organization/teams', { body: { name: ctx.positionals[0] as string, ...(ids ? { userIds: ids } : {}) } }));
    printObject(ctx, t, [`Created team ${t.name}.`, '', ...describe(t)]);
    return 0;
  },
};

const teamsRename: ApiCommand = {
  name: 'teams rename',
  summary: 'Give a team a new name (owner or manager).',
  positionals: [team, { name: 'NEW_NAME', description: 'The new name' }],
  outputs: ['table', 'json'],
  async run(ctx) {
    const api = ctx.api();
    const t = await findTeam(api, ctx.positionals[0] as string);
    const renamed = await unwrap(
      api.PATCH('/api/v0/organization/teams/{teamId}', { params: { path: { teamId: t.id } }, body: { name: ctx.positionals[1] as string } }),
    );
    printObject(ctx, renamed, [`Renamed team ${t.name} to ${renamed.name}.`]);
    return 0;
  },
};

const teamsDelete: ApiCommand = {
  name: 'teams delete',
  summary: 'Delete a team: it leaves every list and its name is free again; its record stays, under the name it had, for the history (owner or manager).',
  positionals: [team],
  outputs: ['table', 'json'],
  async run(ctx) {
    const api = ctx.api();
    const t = await findTeam(api, ctx.positionals[0] as string);
    await unwrap(api.DELETE('/api/v0/organization/teams/{teamId}', { params: { path: { teamId: t.id } } }));
    printObject(ctx, { id: t.id, name: t.name, deleted: true }, [`Deleted team ${t.name}.`]);
    return 0;
  },
};

const teamsSetMembers: ApiCommand = {
  name: 'teams set-members',
  summary: "Replace a team's members with the users given (owner or manager).",
  positionals: [team],
  flags: { ...memberFlag, none: { type: 'boolean', description: 'Leave the team without members' } },
  outputs: ['table', 'json'],
  async run(ctx) {
    const members = (ctx.values.member as string[] | undefined) ?? [];
    // An empty list would empty the team: asked for by --none, never by a forgotten --member.
    if (members.length === 0 && !ctx.values.none) throw new UsageError('Name the members with --member (repeated), or pass --none to empty the team.');
    if (members.length > 0 && ctx.values.none) throw new UsageError('--none and --member exclude each other.');
    const api = ctx.api();
    const t = await findTeam(api, ctx.positionals[0] as string);
    const ids = await userIds(api, members);
    const updated = await unwrap(api.PUT('/api/v0/organization/teams/{teamId}/members', { params: { path: { teamId: t.id } }, body: { userIds: ids } }));
    printObject(ctx, updated, [
      `Team ${updated.name} has ${updated.members.length} member${updated.members.length === 1 ? '' : 's'}.`,
      ...memberLines(updated),
    ]);
    return 0;
  },
};

/** add-member and remove-member: one user, by email or id, into or out of a team. */
async function changeMember(ctx: CommandContext, change: 'add' | 'remove'): Promise<number> {
  const api = ctx.api();
  const t = await findTeam(api, ctx.positionals[0] as string);
  const [userId] = await userIds(api, [ctx.positionals[1] as string]);
  const path = { params: { path: { teamId: t.id, userId: userId as string } } };
  const updated = await unwrap(
    change === 'add'
      ? api.PUT('/api/v0/organization/teams/{teamId}/members/{userId}', path)
      : api.DELETE('/api/v0/organization/teams/{teamId}/members/{userId}', path),
  );
  const who = ctx.positionals[1] as string;
  printObject(ctx, updated, [`${change === 'add' ? 'Added' : 'Removed'} ${who} ${change === 'add' ? 'to' : 'from'} team ${updated.name}.`]);
  return 0;
}

const teamsAddMember: ApiCommand = {
  name: 'teams add-member',
  summary: 'Add a user to a team; adding a member again changes nothing (owner or manager).',
  positionals: [team, user],
  outputs: ['table', 'json'],
  run: (ctx) => changeMember(ctx, 'add'),
};

const teamsRemoveMember: ApiCommand = {
  name: 'teams remove-member',
  summary: 'Remove a user from a team (owner or manager).',
  positionals: [team, user],
  outputs: ['table', 'json'],
  run: (ctx) => changeMember(ctx, 'remove'),
};

const teamsBudget: ApiCommand = {
  name: 'teams budget',
  summary: "Set or remove a team's monthly budget in Standard Credits, for all its members together (owner or manager).",
  positionals: [team],
  flags: { limit: { type: 'string', value: 'N|none', description: 'Standard Credits per month (at least 1,000,000), or none to remove the budget' } },
  outputs: ['table', 'json'],
  async run(ctx) {
    const limit = limitValue(ctx);
    const api = ctx.api();
    const t = await findTeam(api, ctx.positionals[0] as string);
    const body = await unwrap(api.PUT('/api/v0/organization/usage/limits/teams/{teamId}', { params: { path: { teamId: t.id } }, body: { limit } }));
    printObject(ctx, body, [`Monthly budget of team ${body.teamName}: ${credits(body.limit)}.`]);
    return 0;
  },
};

export const teamsCommands = [
  teamsList,
  teamsGet,
  teamsMembers,
  teamsCreate,
  teamsRename,
  teamsBudget,
  teamsDelete,
  teamsSetMembers,
  teamsAddMember,
  teamsRemoveMember,
];
