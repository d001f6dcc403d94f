import { ApiError, unwrap } from '../../client/api-client.js';
import type { components } from '../../client/openapi-types.js';
import { UsageError } from '../../core/cli/args.js';
import { flag, integerFlag, type ApiCommand } from './command.js';
import { promptHidden } from './hidden-prompt.js';
import { fields, printList, printObject, when } from './print.js';

type SsoConfig = components['schemas']['SsoConfig'];
type MappedRole = SsoConfig['roleMapping'][string];
const MAPPED_ROLES: readonly string[] = ['manager', 'member', 'guest'];

const list = (ctx: { values: Record<string, unknown> }, name: string): string[] | undefined => {
  const v = ctx.values[name] as string[] | undefined;
  return v && v.length > 0 ? v : undefined;
};

/** GROUP=VALUE pairs of a repeated flag; the group may itself hold `=`, the value is after the last one. */
function pairs(values: string[], name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.lastIndexOf('=');
    if (i <= 0 || i === v.length - 1) throw new UsageError(`--${name} takes GROUP=VALUE, got ${JSON.stringify(v)}.`);
    out[v.slice(0, i)] = v.slice(i + 1);
  }
  return out;
}

function describe(c: SsoConfig): string[] {
  return [
    ...fields([
      ['issuer', c.issuer],
      ['client id', c.clientId],
      ['client secret', c.clientSecretSet ? 'set (never shown)' : 'not set'],
      ['redirect URI', c.redirectUri],
      ['groups claim', c.groupsClaim],
      ['required', c.required ? 'yes (passwords work only for owners)' : 'no'],
      ['unverified emails', c.trustUnverifiedEmails ? 'trusted (an ID token without email_verified signs in)' : 'refused'],
      ['updated', when(c.updatedAt)],
    ]),
    'domains:',
    ...c.domains.map((d) =>
      d.verified
        ? `  ${d.domain}  verified${d.verifiedBy === 'allow_list' ? " (the operator's allow-list)" : ''}`
        : `  ${d.domain}  pending: the instance operator verifies it with orgctl sso verify-domain ${d.domain} --token ${d.verificationToken}`,
    ),
    'role mapping:',
    ...(Object.keys(c.roleMapping).length ? Object.entries(c.roleMapping).map(([g, r]) => `  ${g} → ${r}`) : ['  none']),
    'team mapping:',
    ...(Object.keys(c.teamMapping).length ? Object.entries(c.teamMapping).map(([g, t]) => `  ${g} → team ${t}`) : ['  none']),
  ];
}

const ssoGet: ApiCommand = {
  name: 'sso get',
  summary: "The organization's single sign-on configuration (owner); never the client secret.",
  outputs: ['table', 'json'],
  async run(ctx) {
    const c = await unwrap(ctx.api().GET('/api/v0/organization/sso'));
    printObject(ctx, c, describe(c));
    return 0;
  },
};

const ssoSet: ApiCommand = {
  name: 'sso set',
  summary: 'Configure OpenID Connect sign-in (owner). Flags not given keep their current values; a repeated flag given replaces its whole list.',
  flags: {
    issuer: { type: 'string', value: 'URL', description: "The identity provider's issuer URL" },
    'client-id': { type: 'string', value: 'ID', description: 'The client id orgctl has at the provider' },
    'client-secret-stdin': {
      type: 'boolean',
      description: 'Read the client secret from standard input (asked for without echo on a terminal); never a flag value, which would sit in shell history',
    },
    domain: {
      type: 'string',
      value: 'DOMAIN',
      multiple: true,
      description: 'An email domain this organization claims; it signs in once the instance operator verifies it',
    },
    'groups-claim': { type: 'string', value: 'CLAIM', description: 'The ID token claim that lists groups (default groups)' },
    'role-map': { type: 'string', value: 'GROUP=ROLE', multiple: true, description: 'A group and the role it gives (manager, member or guest)' },
    'team-map': { type: 'string', value: 'GROUP=TEAM', multiple: true, description: 'A group and the team (name or id) its people are in' },
    'clear-role-map': { type: 'boolean', description: 'Remove every role mapping' },
    'clear-team-map': { type: 'boolean', description: 'Remove every team mapping' },
    required: { type: 'string', value: 'yes|no', choices: ['yes', 'no'], description: 'Whether passwords stop working for everyone but owners' },
    'trust-unverified-emails': {
      type: 'string',
      value: 'yes|no',
      choices: ['yes', 'no'],
      description: 'Whether an ID token without email_verified signs in (only for a provider that never sends it, such as Entra ID)',
    },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const api = ctx.api();
    let current: SsoConfig | undefined;
    try {
      current = await unwrap(api.GET('/api/v0/organization/sso'));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    const issuer = flag(ctx, 'issuer') ?? current?.issuer;
    const clientId = flag(ctx, 'client-id') ?? current?.clientId;
    const allowedDomains = list(ctx, 'domain') ?? current?.allowedDomains;
    if (!issuer || !clientId || !allowedDomains)
      throw new UsageError('The first configuration needs --issuer, --client-id, --domain and --client-secret-stdin.');
    const roleMap = list(ctx, 'role-map');
    const roleMapping = ctx.values['clear-role-map'] ? {} : roleMap ? pairs(roleMap, 'role-map') : (current?.roleMapping ?? {});
    for (const [g, r] of Object.entries(roleMapping)) {
      if (!MAPPED_ROLES.includes(String(r))) throw new UsageError(`--role-map ${g}=${r}: the role must be manager, member or guest (owners are made by hand).`);
    }
    const teamMap = list(ctx, 'team-map');
    const teamMapping = ctx.values['clear-team-map'] ? {} : teamMap ? pairs(teamMap, 'team-map') : (current?.teamMapping ?? {});
    const clientSecret = ctx.values['client-secret-stdin'] ? await promptHidden('Client secret: ') : undefined;
    if (clientSecret === '') throw new UsageError('The client secret read from standard input is empty.');
    if (!current && clientSecret === undefined)
      throw new UsageError('The first configuration needs --issuer, --client-id, --domain and --client-secret-stdin.');
    const required = flag(ctx, 'required');
    const trust = flag(ctx, 'trust-unverified-emails');
    const c = await unwrap(
      api.PUT('/api/v0/organization/sso', {
        body: {
          issuer,
          clientId,
          allowedDomains,
          groupsClaim: flag(ctx, 'groups-claim') ?? current?.groupsClaim ?? 'groups',
          roleMapping: roleMapping as Record<string, MappedRole>,
          teamMapping,
          required: required === undefined ? (current?.required ?? false) : required === 'yes',
          trustUnverifiedEmails: trust === undefined ? (current?.trustUnverifiedEmails ?? false) : trust === 'yes',
          ...(clientSecret === undefined ? {} : { clientSecret }),
        },
      }),
    );
    printObject(ctx, c, ['Single sign-on configured.', '', ...describe(c)]);
    return 0;
  },
};

const ssoRemove: ApiCommand = {
  name: 'sso remove',
  summary: 'Remove the single sign-on configuration (owner): passwords work again for everyone.',
  async run(ctx) {
    await unwrap(ctx.api().DELETE('/api/v0/organization/sso'));
    process.stdout.write('Single sign-on removed.\n');
    return 0;
  },
};

const ssoEvents: ApiCommand = {
  name: 'sso events',
  summary: 'Sign-in events, newest first (owner): successes, failures and why, people created, mapping changes, break-glass.',
  flags: { limit: { type: 'string', value: 'N', description: 'How many (1 to 500, default 100)' } },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const limit = integerFlag(ctx, 'limit');
    const body = await unwrap(ctx.api().GET('/api/v0/organization/sso/events', { params: { query: { limit: limit ?? 100 } } }));
    const rows = body.events.map((e) => ({
      at: when(e.at),
      kind: e.kind,
      email: e.email ?? '',
      reason: e.reason ?? '',
      detail: ctx.output === 'json' ? e.detail : JSON.stringify(e.detail),
    }));
    printList(ctx, body, rows);
    return 0;
  },
};

export const ssoCommands: ApiCommand[] = [ssoGet, ssoSet, ssoRemove, ssoEvents];
