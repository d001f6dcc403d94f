import { UsageError } from '../../core/cli/args.js';
import { DAY_MS, isDay } from '../../core/days.js';
import { unwrap } from '../../client/api-client.js';
import { parseScopes, type Scope } from '../../core/identity/scopes.js';
import { keyHolder } from '../../client/key-holder.js';
import { flag, type ApiCommand, type CommandContext } from './command.js';
import { fields, printList, printObject, when } from './print.js';

/** --scopes LIST: comma-separated scope names (docs/identity-and-access.md, Scopes). */
export function scopesFlag(raw: string): Scope[] {
  const parsed = parseScopes(raw);
  if ('problem' in parsed) throw new UsageError(`--scopes: ${parsed.problem}.`);
  return parsed.scopes;
}

/** --expires DATE|TIME|Nd: a day (end of that day, UTC), an ISO time, or a number of days from now. */
export function expiresAt(ctx: CommandContext, now = Date.now()): number | undefined {
  const raw = flag(ctx, 'expires');
  if (raw === undefined) return undefined;
  const days = /^(\d+)d$/.exec(raw);
  if (days) return now + Number(days[1]) * DAY_MS;
  const ms = isDay(raw) ? Date.parse(`${raw}T23:59:59.999Z`) : Date.parse(raw);
  if (Number.isNaN(ms)) throw new UsageError(`--expires must be a date (YYYY-MM-DD), an ISO time or a number of days (30d); got ${raw}.`);
  return ms;
}

export const keysList: ApiCommand = {
  name: 'keys list',
  summary: "API keys you may see (managers and owners: the organization's), never their secrets.",
  flags: { 'principal-id': { type: 'string', value: 'ID', description: 'Only the keys of this user or service account' } },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const principalId = flag(ctx, 'principal-id');
    const body = await unwrap(ctx.api().GET('/api/v0/api-keys', { params: { query: principalId ? { principalId } : {} } }));
    const rows =
      ctx.output === 'table'
        ? body.apiKeys.map((k) => ({
            id: k.id,
            name: k.name,
            prefix: k.prefix,
            holder: keyHolder(k),
            scopes: k.scopes.join(' '),
            created: when(k.createdAt),
            last_used: when(k.lastUsedAt),
            expires: when(k.expiresAt),
            state: k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt <= Date.now() ? 'expired' : 'active',
          }))
        : body.apiKeys;
    printList(ctx, body, rows);
    return 0;
  },
};

export const keysCreate: ApiCommand = {
  name: 'keys create',
  summary: 'Create an API key for yourself, or (managers and owners) for a user by --email or a service account by --principal-id. The secret is printed once.',
  flags: {
    name: { type: 'string', value: 'NAME', description: 'A name to tell the key apart' },
    email: { type: 'string', value: 'EMAIL', description: 'The user the key is for' },
    'principal-id': { type: 'string', value: 'ID', description: 'The user or service account the key is for' },
    expires: { type: 'string', value: 'WHEN', description: 'Expiry: a day (YYYY-MM-DD, end of day UTC), an ISO time, or days from now (30d)' },
    scopes: {
      type: 'string',
      value: 'LIST',
      description:
        'Narrow the key to these scopes, comma-separated: telemetry:write, allowance:read, sessions:attribute (a managed install needs all three); default full',
    },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const name = flag(ctx, 'name');
    const email = flag(ctx, 'email');
    const principalId = flag(ctx, 'principal-id');
    const expires = expiresAt(ctx);
    const rawScopes = flag(ctx, 'scopes');
    const scopes = rawScopes === undefined ? undefined : scopesFlag(rawScopes);
    const body = await unwrap(
      ctx.api().POST('/api/v0/api-keys', {
        body: {
          ...(name ? { name } : {}),
          ...(email ? { email } : {}),
          ...(principalId ? { principalId } : {}),
          ...(expires !== undefined ? { expiresAt: expires } : {}),
          ...(scopes ? { scopes } : {}),
        },
      }),
    );
    printObject(ctx, body, [
      ...fields([
        ['id', body.id],
        ['name', body.name],
        ['holder', keyHolder(body)],
        ['scopes', body.scopes.join(', ')],
        ['expires', when(body.expiresAt)],
      ]),
      '',
      `Key (shown once; store it now): ${body.key}`,
    ]);
    return 0;
  },
};

export const keysRevoke: ApiCommand = {
  name: 'keys revoke',
  summary: 'Revoke an API key: from now on it authenticates nothing.',
  positionals: [{ name: 'KEY_ID', description: 'The id of the key (orgctl keys list)' }],
  outputs: ['table', 'json'],
  async run(ctx) {
    const id = ctx.positionals[0] as string;
    await unwrap(ctx.api().DELETE('/api/v0/api-keys/{id}', { params: { path: { id } } }));
    // The API answers 204 without a body; json output says what happened in the same words.
    printObject(ctx, { id, revoked: true }, [`Key ${id} revoked.`]);
    return 0;
  },
};

export const keysApiCommands = [keysList, keysCreate, keysRevoke];
