import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { TestOidcProvider } from '../helpers/oidc-provider.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl sso …` over the API, as an owner on another machine runs it, against a real provider.

let root: string;
let server: Server;
let idp: TestOidcProvider;
let ownerKey: string;
let memberKey: string;
let dbEnv: Record<string, string>;

beforeAll(async () => {
  root = tempDir('orgctl-cli-sso-');
  const installed = await orgInstallation([{ email: 'mia@acme.test' }]);
  ownerKey = installed.ownerKey;
  memberKey = installed.keys['mia@acme.test']!;
  dbEnv = installed.env;
  server = await startServer({ ...installed.env, SSO_ALLOW_PRIVATE_ISSUER: 'true' });
  onCleanup(() => server.stop());
  idp = await TestOidcProvider.start(`${server.url}/api/v0/sso/callback`);
  onCleanup(() => idp.close());
}, 180_000);

const cli = (args: string[], o: { key?: string; input?: string } = {}) =>
  spawnCli(args, {
    cwd: root,
    input: o.input,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: '',
      DATABASE_URL: '',
      XDG_CONFIG_HOME: path.join(root, 'config'),
      ORGCTL_URL: server.url,
      ORGCTL_API_KEY: o.key ?? ownerKey,
    },
  });

describe('orgctl sso', () => {
  it('configures single sign-on with the secret from standard input, shows it without the secret, and removes it', async () => {
    expect((await cli(['teams', 'create', 'Payments'])).code).toBe(0);
    const first = await cli(['sso', 'set', '--issuer', idp.issuer, '--client-id', idp.clientId, '--domain', 'acme.test']);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/--client-secret-stdin/);

    const set = await cli(
      [
        'sso',
        'set',
        '--issuer',
        idp.issuer,
        '--client-id',
        idp.clientId,
        '--client-secret-stdin',
        '--domain',
        'acme.test',
        '--role-map',
        'orgctl-managers=manager',
        '--team-map',
        'team-payments=payments',
      ],
      { input: `${idp.clientSecret}\n` },
    );
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^Single sign-on configured\./);
    expect(set.stdout).toMatch(/client secret\s+set \(never shown\)/);
    expect(set.stdout).toMatch(/orgctl-managers → manager/);
    expect(set.stdout).toContain(`redirect URI`);
    expect(set.stdout).not.toContain(idp.clientSecret);

    // A later change keeps what it does not name, the secret included.
    const required = await cli(['sso', 'set', '--required', 'yes', '--output', 'json']);
    expect(required.code).toBe(0);
    const body = JSON.parse(required.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({ required: true, clientSecretSet: true, allowedDomains: ['acme.test'], roleMapping: { 'orgctl-managers': 'manager' } });
    expect(required.stdout).not.toContain(idp.clientSecret);

    const bad = await cli(['sso', 'set', '--role-map', 'admins=owner']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/owners are made by hand/);

    const member = await cli(['sso', 'get'], { key: memberKey });
    expect(member.code).toBe(1);
    expect(member.stderr).toMatch(/403/);

    const events = await cli(['sso', 'events', '--output', 'json']);
    expect(JSON.parse(events.stdout)).toEqual({ events: [], nextCursor: null });

    expect((await cli(['sso', 'remove'])).stdout).toBe('Single sign-on removed.\n');
    const gone = await cli(['sso', 'get']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/404|not found/i);
  });

  it('the instance operator verifies a claimed domain on the host with its token, or lists it for its organization', async () => {
    const set = await cli(
      ['sso', 'set', '--issuer', idp.issuer, '--client-id', idp.clientId, '--client-secret-stdin', '--domain', 'acme.test', '--domain', 'acme.io'],
      {
        input: `${idp.clientSecret}\n`,
      },
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/acme\.test {2}pending: the instance operator verifies it with orgctl sso verify-domain acme\.test --token \S+/);
    const got = JSON.parse((await cli(['sso', 'get', '--output', 'json'])).stdout) as { domains: { domain: string; verificationToken: string }[] };
    const token = got.domains.find((d) => d.domain === 'acme.test')!.verificationToken;
    const start = () => fetch(`${server.url}/api/v0/sso/start?email=ceo@acme.test`, { redirect: 'manual' }).then((r) => r.headers.get('location'));
    expect(await start()).toMatch(/sso_error=sso_not_configured$/);

    // The embedded database is the server's alone while it runs: the operator stops it first.
    await server.stop();
    const wrong = await runCli(['sso', 'verify-domain', 'acme.test', '--token', 'not-the-token'], dbEnv);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^The token is not the one of any claim of acme\.test: nothing was verified/);
    const unclaimed = await runCli(['sso', 'verify-domain', 'nobody.test', '--token', token], dbEnv);
    expect(unclaimed.code).toBe(1);
    expect(unclaimed.stderr).toMatch(/^No organization claims nobody\.test/);
    const verified = await runCli(['sso', 'verify-domain', 'acme.test', '--token', token], dbEnv);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^acme\.test verified for organization "acme" \([0-9a-f-]{36}\)/);
    const again = await runCli(['sso', 'verify-domain', 'acme.test', '--token', token, '--json'], dbEnv);
    const orgId = (JSON.parse(again.stdout) as { orgId: string; alreadyVerified: boolean }).orgId;
    expect(JSON.parse(again.stdout)).toEqual({ domain: 'acme.test', orgId, verified: true, alreadyVerified: true });

    // Listed for the organization, its pending claim is verified when the service starts.
    server = await startServer({ ...dbEnv, SSO_ALLOW_PRIVATE_ISSUER: 'true', SSO_VERIFIED_DOMAINS: `acme.io=${orgId}` });
    onCleanup(() => server.stop());
    expect(await start()).toMatch(new RegExp(`^${idp.issuer}`));
    const after = await cli(['sso', 'get']);
    expect(after.stdout).toMatch(/acme\.io {2}verified \(the operator's allow-list\)/);
    expect(after.stdout).toMatch(/acme\.test {2}verified\n/);
  }, 120_000);
});
