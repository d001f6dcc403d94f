import { beforeAll, describe, expect, it } from 'vitest';
import { remoteCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl scim token …` over the API against a real `orgctl serve`, whose SCIM endpoint then takes
// the token over real HTTP; the server logs every request (LOG_LEVEL=debug) and never the token.

let root: string;
let server: Server;
let ownerKey: string;
let memberKey: string;

beforeAll(async () => {
  root = tempDir('orgctl-cli-scim-');
  const installed = await orgInstallation([{ email: 'manny@acme.test', role: 'manager' }]);
  ownerKey = installed.ownerKey;
  memberKey = installed.keys['manny@acme.test']!;
  server = await startServer({ ...installed.env, LOG_LEVEL: 'debug' });
  onCleanup(() => server.stop());
}, 180_000);

const cli = (args: string[], key = ownerKey) => remoteCli(args, { url: server.url, key, dir: root });
const scimUsers = (token: string) => fetch(`${server.url}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${token}` } });

describe('orgctl scim token', () => {
  it('creates a token shown once, which the SCIM endpoint takes; lists it without the secret; revokes it', async () => {
    const created = await cli(['scim', 'token', 'create', '--name', 'Okta']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const token = /SCIM token \(shown once[^:]*\): (ocs_\w+)/.exec(created.stdout)?.[1];
    expect(token).toMatch(/^ocs_[0-9A-Za-z]{38}$/);
    expect(created.stdout).toContain(`SCIM base URL: ${server.url}/scim/v2`);

    const ok = await scimUsers(token!);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/scim\+json/);

    const list = await cli(['scim', 'token', 'list', '--output', 'json']);
    const tokens = (JSON.parse(list.stdout) as { tokens: { id: string; name: string; prefix: string; revokedAt: number | null; lastUsedAt: number | null }[] })
      .tokens;
    expect(tokens).toEqual([expect.objectContaining({ name: 'Okta', prefix: token!.slice(0, 10), revokedAt: null })]);
    expect(tokens[0]!.lastUsedAt).not.toBeNull();
    expect(list.stdout).not.toContain(token!);
    expect((await cli(['scim', 'token', 'list'])).stdout).toMatch(/Okta\s+ocs_\w{6}\s+.*active/);

    const revoked = await cli(['scim', 'token', 'revoke', tokens[0]!.id]);
    expect(revoked.stdout).toBe(`SCIM token ${tokens[0]!.id} revoked.\n`);
    const refused = await scimUsers(token!);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });

    expect(server.output()).toContain('"route":"/scim/v2/Users"');
    expect(server.output()).not.toContain(token!);
    expect(server.output()).not.toContain(token!.slice(10));
  });

  it('is for owners only: a manager is refused with 403', async () => {
    const refused = await cli(['scim', 'token', 'create'], memberKey);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/403|owner/);
  });

  it('says what is wrong with an unknown action or a missing id', async () => {
    const unknown = await cli(['scim', 'token', 'rotate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/ACTION must be one of: list, create, revoke/);
    expect((await cli(['scim', 'token', 'revoke'])).stderr).toMatch(/needs the TOKEN_ID/);
  });
});
