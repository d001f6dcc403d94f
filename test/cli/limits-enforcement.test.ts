import { beforeAll, describe, expect, it } from 'vitest';
import { remoteCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl limits enforcement [set]` over the API, as a user on another machine runs it.

let root: string;
let server: Server;
let ownerKey: string;
let memberKey: string;

beforeAll(async () => {
  root = tempDir('orgctl-cli-enforcement-');
  const installed = await orgInstallation([{ email: 'mia@acme.test' }]);
  ownerKey = installed.ownerKey;
  memberKey = installed.keys['mia@acme.test']!;
  server = await startServer(installed.env);
  onCleanup(() => server.stop());
}, 180_000);

const cli = (args: string[], key = ownerKey) => remoteCli(args, { url: server.url, key, dir: root });

describe('orgctl limits enforcement', () => {
  it('shows the defaults, sets some fields keeping the others, and the audit and allowance show the result', async () => {
    const shown = await cli(['limits', 'enforcement']);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe('mode         block\nthresholds   80%, 95%\nunreachable  open\n');

    const set = await cli(['limits', 'enforcement', 'set', '--mode', 'warn', '--thresholds', '50,90']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^Enforcement policy set\.\nmode +warn\nthresholds +50%, 90%\nunreachable +open\n$/);
    const json = await cli(['limits', 'enforcement', 'set', '--unreachable', 'closed', '--output', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ mode: 'warn', thresholds: [50, 90], unreachable: 'closed' });
    const none = await cli(['limits', 'enforcement', 'set', '--thresholds', 'none', '--output', 'json']);
    expect(JSON.parse(none.stdout)).toEqual({ mode: 'warn', thresholds: [], unreachable: 'closed' });

    const audit = JSON.parse((await cli(['limits', 'audit', '--output', 'json'])).stdout) as { entries: { scope: string; newPolicy: unknown }[] };
    expect(audit.entries.map((e) => e.scope)).toEqual(['policy', 'policy', 'policy']);
    expect(audit.entries[0]!.newPolicy).toEqual({ mode: 'warn', thresholds: [], unreachable: 'closed' });
    expect((await cli(['limits', 'audit'])).stdout).toContain('warn; 50%, 90%; closed');

    const allowance = await cli(['limits', 'allowance'], memberKey);
    expect(allowance.code).toBe(0);
    expect(allowance.stdout).toMatch(/enforcement mode +warn\nenforcement thresholds +none\nenforcement unreachable +closed/);
  });

  it('a member reads the policy but may not set it (exit 1, HTTP 403); bad input is refused', async () => {
    expect((await cli(['limits', 'enforcement', '--output', 'json'], memberKey)).code).toBe(0);
    const forbidden = await cli(['limits', 'enforcement', 'set', '--mode', 'off'], memberKey);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('HTTP 403');

    const descending = await cli(['limits', 'enforcement', 'set', '--thresholds', '95,80']);
    expect(descending.code).toBe(1);
    expect(descending.stderr).toMatch(/thresholds\/1 must be greater than the threshold before it \(95\)[\s\S]*HTTP 400/);
    for (const args of [['set', '--thresholds', '80%'], ['set', '--mode', 'deny'], ['set'], ['--mode', 'off']]) {
      const bad = await cli(['limits', 'enforcement', ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
    }
    expect(JSON.parse((await cli(['limits', 'enforcement', '--output', 'json'])).stdout)).toMatchObject({ mode: 'warn' });
  });
});
