import { unwrap } from '../../client/api-client.js';
import { requiredFlag, type ApiCommand } from './command.js';
import { printList, printObject, when } from './print.js';

export const usersLink: ApiCommand = {
  name: 'users link',
  summary: "Link an agent client's account id to a user, so an organization-wide OTLP key attributes records that name only the account (owner or manager).",
  flags: {
    email: { type: 'string', value: 'EMAIL', description: 'The user' },
    'account-id': { type: 'string', value: 'ID', description: "The client's account id or uuid (user.account_id, user.account_uuid, Droid's user.id)" },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const body = await unwrap(
      ctx.api().PUT('/api/v0/organization/account-links', { body: { email: requiredFlag(ctx, 'email'), accountId: requiredFlag(ctx, 'account-id') } }),
    );
    printObject(ctx, body, [`Account ${body.accountId} is linked to ${body.email}.`]);
    return 0;
  },
};

export const usersLinks: ApiCommand = {
  name: 'users links',
  summary: 'The account links of the organization.',
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/account-links'));
    printList(ctx, body, ctx.output === 'table' ? body.links.map((l) => ({ email: l.email, account_id: l.accountId, linked: when(l.createdAt) })) : body.links);
    return 0;
  },
};

export const usersUnlink: ApiCommand = {
  name: 'users unlink',
  summary: 'Remove an account link.',
  flags: { 'account-id': { type: 'string', value: 'ID', description: 'The linked account id' } },
  outputs: ['table', 'json'],
  async run(ctx) {
    const accountId = requiredFlag(ctx, 'account-id');
    await unwrap(ctx.api().DELETE('/api/v0/organization/account-links/{accountId}', { params: { path: { accountId } } }));
    printObject(ctx, { accountId, unlinked: true }, [`Account ${accountId} is no longer linked.`]);
    return 0;
  },
};

/**
 * The organization's people over the API (owner or manager): its users (the members endpoint) and
 * service accounts, with how many working keys each holds, as `users list --local` shows them from
 * the database. Three reads; json is the two list bodies in one object.
 */
export const usersList: ApiCommand = {
  name: 'users list',
  summary: 'The users and service accounts of the organization, with their roles and working keys (owner or manager).',
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const api = ctx.api();
    const [members, accounts, keys] = await Promise.all([
      unwrap(api.GET('/api/v0/organization/members')),
      unwrap(api.GET('/api/v0/organization/service-accounts')),
      unwrap(api.GET('/api/v0/api-keys', { params: { query: {} } })),
    ]);
    const now = Date.now();
    const working = new Map<string, number>();
    for (const k of keys.apiKeys) {
      if (k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now)) working.set(k.principalId, (working.get(k.principalId) ?? 0) + 1);
    }
    const rows = [
      ...members.members.map((m) => ({
        id: m.id,
        kind: 'user',
        email: m.email,
        name: m.name,
        role: m.role,
        keys: working.get(m.id) ?? 0,
        created: when(m.createdAt),
      })),
      ...accounts.serviceAccounts.map((a) => ({
        id: a.id,
        kind: 'service account',
        email: '',
        name: a.name,
        role: a.role,
        keys: a.activeKeys,
        created: when(a.createdAt),
      })),
    ];
    printList(ctx, { members: members.members, serviceAccounts: accounts.serviceAccounts }, rows);
    return 0;
  },
};

export const usersInvitations: ApiCommand = {
  name: 'users invitations',
  summary: 'Invitations not yet accepted and not expired (owner or manager); make one with `orgctl users invite`.',
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/invitations'));
    const rows =
      ctx.output === 'table'
        ? body.invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, created: when(i.createdAt), expires: when(i.expiresAt) }))
        : body.invitations;
    printList(ctx, body, rows);
    return 0;
  },
};

export const usersRevokeInvitation: ApiCommand = {
  name: 'users revoke-invitation',
  summary: 'Revoke an invitation not yet accepted: its link stops working (owner or manager; never one for a role above yours).',
  positionals: [{ name: 'INVITATION_ID', description: 'The id of the invitation (orgctl users invitations)' }],
  outputs: ['table', 'json'],
  async run(ctx) {
    const id = ctx.positionals[0] as string;
    await unwrap(ctx.api().DELETE('/api/v0/organization/invitations/{id}', { params: { path: { id } } }));
    printObject(ctx, { id, revoked: true }, [`Invitation ${id} revoked.`]);
    return 0;
  },
};

export const accountCommands = [usersList, usersInvitations, usersRevokeInvitation, usersLink, usersLinks, usersUnlink];
