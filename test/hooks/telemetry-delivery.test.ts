import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';
import { assertFreshBuild, orgctl } from './cli-process.js';
import { script, hooksDir, writeJson } from './helpers.js';

// The hook runner reporting to a real, listening orgctl service: its events are accepted and stored.
let t: TestApp;
let org: Org;
let url: string;

beforeAll(async () => {
  assertFreshBuild();
  t = await TestApp.start();
  org = await t.createOrg('hooks-telemetry');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t?.close());

describe('hook telemetry delivered to the service', () => {
  it('each hook run is stored as a hook event of the caller, with its event, matcher and command', async () => {
    const dir = hooksDir();
    const ok = script(dir, 'ok.sh', 'exit 0');
    const config = writeJson(dir, 'hooks.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: ok }] }] },
    });
    const run = await orgctl(['hooks', 'run', 'Stop', '--config', config, '--session-id', 'sess-telemetry-1'], {
      env: { ORGCTL_URL: url, ORGCTL_API_KEY: org.ownerKey },
    });
    expect(run.code).toBe(0);
    const rows = await t.db.query<{ user_id: string; type: string; session_id: string; attrs: Record<string, unknown> }>(
      `SELECT user_id, type, session_id, attrs FROM telemetry_events WHERE org_id = $1`,
      [org.orgId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: org.ownerId, type: 'hook', session_id: 'sess-telemetry-1' });
    expect(rows[0]!.attrs).toMatchObject({ event: 'Stop', matcher: '', command: ok });
  });
});
