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

export const accountCommands = [usersLink, usersLinks, usersUnlink];
