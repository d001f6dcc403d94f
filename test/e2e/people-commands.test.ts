import { describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/cli.js';
import { installation } from '../helpers/installation.js';

const json = <T>(stdout: string) => JSON.parse(stdout) as T;

describe('the database commands that list and manage people and keys', { timeout: 120_000 }, () => {
  it('users add refuses what is not an email address, as the API would', async () => {
    const env = await installation();
    expect((await runCli(['init', '--org', 'acme', '--owner-email', 'o@acme.test'], env)).code).toBe(0);
    const res = await runCli(['users', 'add', '--email', 'notanemail', '--role', 'member'], env);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('"notanemail" is not an email address.');
  });

  it('lists users, changes a role, keeps the last owner, removes a user, lists and revokes keys', async () => {
    const env = await installation();
    const init = json<{ orgId: string; userId: string; apiKey: string }>(
      (await runCli(['init', '--org', 'acme', '--owner-email', 'o@acme.test', '--json'], env)).stdout,
    );
    expect((await runCli(['users', 'add', '--email', 'mia@acme.test', '--role', 'member'], env)).code).toBe(0);
    const miaKey = json<{ apiKey: string; keyId: string }>((await runCli(['keys', 'create', '--email', 'mia@acme.test', '--json'], env)).stdout);

    const listed = json<{ principals: { email: string; role: string; activeKeys: number }[] }>((await runCli(['users', 'list', '--json'], env)).stdout);
    expect(listed.principals.map((p) => [p.email, p.role, p.activeKeys])).toEqual([
      ['mia@acme.test', 'member', 1],
      ['o@acme.test', 'owner', 1],
    ]);
    const table = (await runCli(['users', 'list'], env)).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+KIND\s+EMAIL OR NAME\s+ROLE\s+KEYS$/);

    const lastOwner = await runCli(['users', 'set-role', '--email', 'o@acme.test', '--role', 'manager'], env);
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.stderr).toContain('an organization keeps at least one owner');
    expect((await runCli(['users', 'remove', '--email', 'o@acme.test'], env)).code).toBe(1);

    const promoted = json<{ role: string; previousRole: string }>(
      (await runCli(['users', 'set-role', '--email', 'mia@acme.test', '--role', 'owner', '--json'], env)).stdout,
    );
    expect(promoted).toMatchObject({ role: 'owner', previousRole: 'member' });

    const keys = json<{ keys: { id: string; holder: string; state: string; prefix: string }[] }>((await runCli(['keys', 'list', '--json'], env)).stdout);
    expect(keys.keys.map((k) => [k.holder, k.state]).sort()).toEqual([
      ['mia@acme.test', 'active'],
      ['o@acme.test', 'active'],
    ]);
    expect(JSON.stringify(keys)).not.toContain(miaKey.apiKey);
    const revoked = await runCli(['keys', 'revoke', miaKey.keyId], env);
    expect(revoked.code).toBe(0);
    expect((await runCli(['keys', 'revoke', miaKey.keyId], env)).stdout).toContain('already revoked');
    expect((await runCli(['keys', 'revoke', '00000000-0000-4000-8000-000000000000'], env)).code).toBe(1);

    const server = await startServer(env);
    try {
      const me = (key: string) => fetch(`${server.url}/api/v0/me`, { headers: { authorization: `Bearer ${key}` } });
      expect((await me(miaKey.apiKey)).status).toBe(401);
      expect((await me(init.apiKey)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const removed = await runCli(['users', 'remove', '--email', 'mia@acme.test'], env);
    expect(removed.code).toBe(0);
    const after = json<{ principals: { email: string }[] }>((await runCli(['users', 'list', '--json'], env)).stdout);
    expect(after.principals.map((p) => p.email)).toEqual(['o@acme.test']);
  });

  it('with two organizations: orgs list shows both, keys create --principal-id needs no --org-id, and a missing one lists the choices', async () => {
    const env = await installation();
    const a = json<{ orgId: string; userId: string }>((await runCli(['init', '--org', 'alpha', '--owner-email', 'a@alpha.test', '--json'], env)).stdout);
    const b = json<{ orgId: string }>((await runCli(['init', '--org', 'beta', '--owner-email', 'b@beta.test', '--json'], env)).stdout);
    const orgs = json<{ organizations: { id: string; name: string; users: number }[] }>((await runCli(['orgs', 'list', '--json'], env)).stdout);
    expect(orgs.organizations.map((o) => [o.name, o.users])).toEqual([
      ['alpha', 1],
      ['beta', 1],
    ]);
    const plan = await runCli(['orgs', 'set-plan', '--plan', 'free', '--org-id', b.orgId, '--json'], env);
    expect(JSON.parse(plan.stdout)).toEqual({ orgId: b.orgId, plan: 'free', previousPlan: 'enterprise' });
    expect((await runCli(['orgs', 'set-plan', '--plan', 'gold', '--org-id', b.orgId], env)).code).toBe(2);
    const plans = json<{ organizations: { name: string; plan: string }[] }>((await runCli(['orgs', 'list', '--json'], env)).stdout);
    expect(plans.organizations.map((o) => [o.name, o.plan])).toEqual([
      ['alpha', 'enterprise'],
      ['beta', 'free'],
    ]);
    const key = await runCli(['keys', 'create', '--principal-id', a.userId, '--json'], env);
    expect(key.code).toBe(0);
    expect(json<{ orgId: string }>(key.stdout).orgId).toBe(a.orgId);
    const ambiguous = await runCli(['users', 'list'], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`${a.orgId} ("alpha")`);
    expect(ambiguous.stderr).toContain(`${b.orgId} ("beta")`);
    const nobody = await runCli(['keys', 'create', '--email', 'nobody@beta.test', '--org-id', b.orgId], env);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr.trim()).toBe(
      `No user nobody@beta.test in organization "beta" (${b.orgId}). List its users with: orgctl users list --org-id ${b.orgId}`,
    );
  });
});
