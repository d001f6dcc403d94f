import type { Config } from '../config.js';
import { LOCAL } from './local-specs.js';
import { parseCommand } from './model.js';
import { ROLES, type Role } from '../core/identity/roles.js';
import { output, required, UsageError } from '../core/cli/args.js';
import { CliError } from '../core/cli/cli-error.js';
import { withServices } from '../services.js';
import { scopesFlag } from './api/keys-commands.js';

const roleOf = (value: string, allowed: readonly string[] = ROLES): Role => {
  if (!allowed.includes(value)) throw new UsageError(`--role must be one of: ${allowed.join(', ')}.`);
  return value as Role;
};

/** orgctl init --org NAME --owner-email EMAIL [--json] */
export async function init(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.init);
  const name = required(values.org, 'org');
  const ownerEmail = required(values['owner-email'], 'owner-email');
  const created = await withServices(config, ({ operatorIdentity: operator }) => operator.createOrganization({ name, ownerEmail }));
  output(values.json, created, [
    `Organization "${name}" created (id ${created.orgId}).`,
    `Owner ${ownerEmail} (id ${created.userId}).`,
    `Owner API key, shown only now: ${created.apiKey}`,
  ]);
  return 0;
}

/** orgctl users add --email E --role R [--name N] [--org-id ID] [--json] */
export async function usersAdd(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.usersAdd);
  const email = required(values.email, 'email');
  const role = roleOf(required(values.role, 'role'));
  const user = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, ...(await operator.addUser({ orgId, email, role, name: values.name })) };
  });
  output(values.json, { orgId: user.orgId, userId: user.id, email: user.email, role: user.role }, [`User ${user.email} (${user.role}) added: id ${user.id}.`]);
  return 0;
}

/** orgctl keys create --email E [--name N] [--org-id ID] [--json] */
export async function keysCreate(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.keysCreate);
  if ((values.email === undefined) === (values['principal-id'] === undefined)) {
    throw new UsageError('Name the key holder with --email (a user) or --principal-id (a user or service account).');
  }
  const target: { email: string } | { id: string } = values.email !== undefined ? { email: values.email } : { id: values['principal-id'] as string };
  const scopes = values.scopes === undefined ? undefined : scopesFlag(values.scopes);
  const created = await withServices(config, async ({ operatorIdentity: operator }) => {
    // A principal id is unique across organizations, so it names its organization.
    const ofPrincipal = 'id' in target && values['org-id'] === undefined ? await operator.organizationOf({ principalId: target.id }) : undefined;
    if ('id' in target && values['org-id'] === undefined && ofPrincipal === undefined) {
      throw new CliError(`No user or service account has the id ${target.id}. List them with: orgctl users list`);
    }
    const orgId = ofPrincipal ?? (await operator.resolveOrganization(values['org-id']));
    if ('email' in target && !(await operator.findPrincipal(orgId, target))) {
      const org = (await operator.listOrganizations()).find((o) => o.id === orgId);
      throw new CliError(
        `No user ${target.email.trim().toLowerCase()} in organization "${org?.name}" (${orgId}). List its users with: orgctl users list${values['org-id'] ? ` --org-id ${orgId}` : ''}`,
      );
    }
    return { orgId, ...(await operator.createKey(orgId, target, values.name, scopes)) };
  });
  output(values.json, { orgId: created.orgId, userId: created.key.principal_id, keyId: created.key.id, scopes: created.key.scopes, apiKey: created.secret }, [
    `API key for ${created.key.principal_email ?? created.key.principal_name} (scopes: ${created.key.scopes.join(', ')}), shown only now: ${created.secret}`,
  ]);
  return 0;
}

/** orgctl service-accounts add --name N --role manager|member [--org-id ID] [--json] */
export async function serviceAccountsAdd(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.serviceAccountsAdd);
  const name = required(values.name, 'name');
  const role = roleOf(required(values.role, 'role'), ['manager', 'member']) as 'manager' | 'member';
  const account = await withServices(config, async ({ operatorIdentity: operator }) => {
    const orgId = await operator.resolveOrganization(values['org-id']);
    return { orgId, ...(await operator.addServiceAccount({ orgId, name, role })) };
  });
  output(values.json, { orgId: account.orgId, serviceAccountId: account.id, name, role }, [
    `Service account "${name}" (${role}) added: id ${account.id}. Give it a key with: orgctl keys create --principal-id ${account.id}`,
  ]);
  return 0;
}
