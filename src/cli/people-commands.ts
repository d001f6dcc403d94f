import type { Config } from '../config.js';
import { LOCAL } from './local-specs.js';
import { parseCommand } from './model.js';
import { PLANS } from '../core/http/rate-limit-plans.js';
import { ROLES, type Role } from '../core/identity/roles.js';
import { output, required, UsageError } from '../core/cli/args.js';
import { CliError } from '../core/cli/cli-error.js';
import { withServices } from '../services.js';
import { toTable } from './api/render.js';

// The database commands that show and change what init, users add and keys create made. Like
// them they work on the database directly (the embedded one only while the service is stopped).

/** Rows as aligned columns under a header, as the commands over the API print them. */
function table(header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [header.join('  ')];
  return toTable(
    rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))),
    { columns: header },
  )
    .trimEnd()
    .split('\n');
}

const iso = (d: Date | string | null): string => (d === null ? '' : new Date(d).toISOString());

/** orgctl orgs list [--json] */
export async function orgsList(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.orgsList);
  const orgs = await withServices(config, ({ operatorIdentity: operator }) => operator.organizationSummaries());
  output(
    values.json,
    { organizations: orgs },
    orgs.length === 0
      ? ['No organizations yet: orgctl init --org NAME --owner-email EMAIL']
      : table(
          ['ID', 'NAME', 'PLAN', 'USERS', 'SERVICE ACCOUNTS', 'CREATED'],
          orgs.map((o) => [o.id, o.name, o.plan, String(o.users), String(o.serviceAccounts), o.createdAt]),
        ),
  );
  return 0;
}

/** orgctl orgs set-plan --plan free|team|enterprise [--org-id ID] [--json] */
export async function orgsSetPlan(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.orgsSetPlan);
  const plan = required(values.plan, 'plan');
  if (!(PLANS as readonly string[]).includes(plan)) throw new UsageError(`--plan must be one of: ${PLANS.join(', ')}.`);
  const changed = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, previous: await operator.setPlan(orgId, plan) };
  });
  output(values.json, { orgId: changed.orgId, plan, previousPlan: changed.previous }, [
    `Organization ${changed.orgId} is on the ${plan} plan now (was ${changed.previous}); running services apply it within 5 seconds.`,
  ]);
  return 0;
}

/** orgctl users list [--org-id ID] [--json]: users and service accounts, with their working keys. */
export async function usersList(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.usersList);
  const { orgId, principals } = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, principals: await operator.listPrincipals(orgId) };
  });
  output(
    values.json,
    { orgId, principals },
    table(
      ['ID', 'KIND', 'EMAIL OR NAME', 'ROLE', 'KEYS'],
      principals.map((p) => [p.id, p.kind === 'user' ? 'user' : 'service account', p.email ?? p.name, p.role, String(p.activeKeys)]),
    ),
  );
  return 0;
}

/** orgctl users set-role --email E --role R [--org-id ID] [--json] */
export async function usersSetRole(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.usersSetRole);
  const email = required(values.email, 'email');
  const role = required(values.role, 'role');
  if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of: ${ROLES.join(', ')}.`);
  const changed = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, ...(await operator.setUserRole(orgId, email, role as Role)) };
  });
  output(values.json, { orgId: changed.orgId, userId: changed.id, email: changed.email, role: changed.role, previousRole: changed.previous }, [
    `${changed.email} is now ${changed.role} (was ${changed.previous}); their keys act with the new role at once.`,
  ]);
  return 0;
}

/** orgctl users remove --email E [--org-id ID] [--json] */
export async function usersRemove(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.usersRemove);
  const email = required(values.email, 'email');
  const removed = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, ...(await operator.removeUser(orgId, email)) };
  });
  output(values.json, { orgId: removed.orgId, userId: removed.id, email: removed.email, removed: true }, [
    `${removed.email} removed, with their keys. Their telemetry stays in analytics.`,
  ]);
  return 0;
}

/** orgctl keys list [--org-id ID] [--email E] [--json]: key metadata, never secrets. */
export async function keysList(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.keysList);
  const { orgId, keys } = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    const holder = values.email !== undefined ? await operator.findPrincipal(orgId, { email: values.email }) : undefined;
    if (values.email !== undefined && !holder)
      throw new CliError(`No user ${values.email.trim().toLowerCase()} in this organization. List its users with: orgctl users list`);
    return { orgId, keys: await operator.listKeys(orgId, holder?.id) };
  });
  const state = (k: (typeof keys)[number]) => (k.revoked_at ? 'revoked' : k.expires_at && new Date(k.expires_at) <= new Date() ? 'expired' : 'active');
  output(
    values.json,
    {
      orgId,
      keys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.display_prefix,
        principalId: k.principal_id,
        holder: k.principal_email ?? k.principal_name,
        scopes: k.scopes,
        state: state(k),
        createdAt: iso(k.created_at),
        expiresAt: k.expires_at && iso(k.expires_at),
        lastUsedAt: k.last_used_at && iso(k.last_used_at),
        revokedAt: k.revoked_at && iso(k.revoked_at),
      })),
    },
    table(
      ['ID', 'PREFIX', 'NAME', 'HOLDER', 'SCOPES', 'STATE', 'CREATED', 'LAST USED'],
      keys.map((k) => [
        k.id,
        k.display_prefix,
        k.name,
        k.principal_email ?? k.principal_name,
        k.scopes.join(' '),
        state(k),
        iso(k.created_at),
        iso(k.last_used_at),
      ]),
    ),
  );
  return 0;
}

/** orgctl keys revoke KEY_ID [--json]: a key id names its organization. */
export async function keysRevoke(argv: string[], config: Config): Promise<number> {
  const { values, positionals } = parseCommand(argv, LOCAL.keysRevoke);
  if (!positionals[0]) throw new UsageError('Name the key: orgctl keys revoke KEY_ID (orgctl keys list shows the ids).');
  const keyId = positionals[0].toLowerCase();
  const revoked = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.organizationOf({ keyId });
    if (!orgId) throw new CliError(`No API key has the id ${keyId}. List keys with: orgctl keys list`);
    return { orgId, ...(await operator.revokeKey(orgId, keyId)) };
  });
  output(values.json, { orgId: revoked.orgId, keyId, revoked: true, alreadyRevoked: revoked.already }, [
    revoked.already ? `Key ${keyId} was already revoked.` : `Key ${keyId} revoked: it authenticates nothing from now on.`,
  ]);
  return 0;
}

/** Where the web app's pages are, for links printed here: PUBLIC_URL, else this machine's listener. */
function appUrlOf(config: Config): string {
  if (config.publicUrl !== undefined) return new URL(config.publicUrl).origin;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.appPort ?? config.port}`;
}

/** orgctl users invite --email E --role R [--org-id ID] [--json]: a one-time link (7 days) that sets the new user's password. */
export async function usersInvite(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.usersInvite);
  const email = required(values.email, 'email');
  const role = required(values.role, 'role');
  if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of: ${ROLES.join(', ')}.`);
  const made = await withServices(config, async ({ operatorIdentity: operator, accounts }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, ...(await accounts.invite(null, orgId, { email, role: role as Role })) };
  });
  const url = `${appUrlOf(config)}/invite/${made.token}`;
  output(
    values.json,
    {
      orgId: made.orgId,
      invitationId: made.invitation.id,
      email: made.invitation.email,
      role: made.invitation.role,
      expiresAt: made.invitation.expires_at.toISOString(),
      url,
    },
    [
      `Invitation for ${made.invitation.email} (${made.invitation.role}), valid until ${made.invitation.expires_at.toISOString()}. Send them this one-time link:`,
      `  ${url}`,
    ],
  );
  return 0;
}
