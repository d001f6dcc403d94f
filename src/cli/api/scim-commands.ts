import { unwrap } from '../../client/api-client.js';
import { UsageError } from '../../core/cli/args.js';
import { flag, type ApiCommand } from './command.js';
import { fields, printList, printObject, when } from './print.js';

const ACTIONS = ['list', 'create', 'revoke'] as const;

/**
 * `orgctl scim token list|create|revoke`: the organization's SCIM tokens (owners). One command
 * with an action, since the command model names a command in at most two words.
 */
const scimToken: ApiCommand = {
  name: 'scim token',
  summary: "The organization's SCIM tokens for an identity provider (owners): list; create [--name NAME], whose secret is printed once; revoke TOKEN_ID.",
  positionals: [
    { name: 'ACTION', description: `${ACTIONS.join(', ')}` },
    { name: 'TOKEN_ID', description: 'The token to revoke (orgctl scim token list)', optional: true },
  ],
  flags: { name: { type: 'string', value: 'NAME', description: 'create: what the token is for, e.g. Okta' } },
  outputs: ['table', 'json'],
  async run(ctx) {
    const [action, id] = ctx.positionals as [string, string | undefined];
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`ACTION must be one of: ${ACTIONS.join(', ')}; got ${action}.`);
    if (action === 'revoke') {
      if (id === undefined) throw new UsageError('orgctl scim token revoke needs the TOKEN_ID (orgctl scim token list).');
      await unwrap(ctx.api().DELETE('/api/v0/organization/scim/tokens/{tokenId}', { params: { path: { tokenId: id } } }));
      printObject(ctx, { id, revoked: true }, [`SCIM token ${id} revoked.`]);
      return 0;
    }
    if (id !== undefined) throw new UsageError(`orgctl scim token ${action} takes no TOKEN_ID.`);
    if (action === 'list') {
      const body = await unwrap(ctx.api().GET('/api/v0/organization/scim/tokens'));
      const rows =
        ctx.output === 'table'
          ? body.tokens.map((k) => ({
              id: k.id,
              name: k.name,
              prefix: k.prefix,
              created: when(k.createdAt),
              last_used: when(k.lastUsedAt),
              state: k.revokedAt === null ? 'active' : 'revoked',
            }))
          : body.tokens;
      printList(ctx, body, rows);
      return 0;
    }
    const name = flag(ctx, 'name');
    const body = await unwrap(ctx.api().POST('/api/v0/organization/scim/tokens', { body: name ? { name } : {} }));
    printObject(ctx, body, [
      ...fields([
        ['id', body.id],
        ['name', body.name],
      ]),
      '',
      `SCIM token (shown once; paste it into the identity provider now): ${body.token}`,
      `SCIM base URL: ${ctx.connection().url.replace(/\/+$/, '')}/scim/v2`,
    ]);
    return 0;
  },
};

export const scimCommands = [scimToken];
