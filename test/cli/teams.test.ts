import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { remoteCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup, tempDir } from '../helpers/cleanup.js';

// `orgctl teams …` over the API, as a user on another machine runs it: teams by name or id,
// people by email or id.

let root: string;
let server: Server;
let ownerKey: string;
let memberKey: string;

beforeAll(async () => {
  root = tempDir('orgctl-cli-teams-');
  const installed = await orgInstallation([{ email: 'mia@acme.test' }, { email: 'ned@acme.test', key: false }]);
  ownerKey = installed.ownerKey;
  memberKey = installed.keys['mia@acme.test']!;
  server = await startServer(installed.env);
  onCleanup(() => server.stop());
}, 180_000);

const cli = (args: string[], key = ownerKey) => remoteCli(args, { url: server.url, key, dir: root });

describe('orgctl teams', () => {
  // Eighteen CLI processes, one after another: on a loaded 2-core machine they took over 30 s.
  it('creates a team with members by email, lists it, renames it, changes its members and deletes it', async () => {
    const created = await cli(['teams', 'create', 'Platform', '--member', 'mia@acme.test', '--member', 'NED@acme.test']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Created team Platform\./);
    expect(created.stdout).toMatch(/mia@acme\.test \(member\)\n\s+ned@acme\.test \(member\)/);

    const table = await cli(['teams', 'list']);
    expect(table.stdout).toMatch(/Platform\s+\S+\s+none\s+2\s+mia@acme\.test, ned@acme\.test/);
    const csv = parse((await cli(['teams', 'list', '--output', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(csv).toEqual([expect.objectContaining({ name: 'Platform', members: 'mia@acme.test;ned@acme.test' })]);

    expect((await cli(['teams', 'rename', 'platform', 'Platform Eng'])).stdout).toBe('Renamed team Platform to Platform Eng.\n');
    expect((await cli(['teams', 'budget', 'platform eng', '--limit', '5_000_000'])).stdout).toBe('Monthly budget of team Platform Eng: 5,000,000.\n');
    const refused = await cli(['teams', 'budget', 'Platform Eng', '--limit', '6000000'], memberKey);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/403|owner, manager/);
    const budgets = parse((await cli(['limits', 'teams', '--output', 'csv'], memberKey)).stdout, { columns: true }) as Record<string, string>[];
    expect(budgets).toEqual([expect.objectContaining({ scope: 'team', teamName: 'Platform Eng', limit: '5000000', used: '0', remaining: '5000000' })]);
    expect((await cli(['teams', 'get', 'Platform Eng'])).stdout).toMatch(/monthly budget\s+5,000,000/);
    const audit = JSON.parse((await cli(['limits', 'audit', '--output', 'json'])).stdout) as { entries: Record<string, unknown>[] };
    expect(audit.entries[0]).toMatchObject({ scope: 'team', targetTeamName: 'Platform Eng', oldLimit: null, newLimit: 5_000_000 });
    expect((await cli(['teams', 'remove-member', 'Platform Eng', 'ned@acme.test'])).stdout).toBe('Removed ned@acme.test from team Platform Eng.\n');
    const members = JSON.parse((await cli(['teams', 'members', 'platform eng', '--output', 'json'])).stdout) as { members: { email: string }[] };
    expect(members.members.map((m) => m.email)).toEqual(['mia@acme.test']);

    const team = JSON.parse((await cli(['teams', 'get', 'Platform Eng', '--output', 'json'])).stdout) as { id: string };
    expect((await cli(['teams', 'add-member', team.id, 'owner@acme.test'])).stdout).toBe('Added owner@acme.test to team Platform Eng.\n');
    const set = await cli(['teams', 'set-members', team.id, '--member', 'ned@acme.test']);
    expect(set.stdout).toBe('Team Platform Eng has 1 member.\n  ned@acme.test (member)\n');
    expect((await cli(['teams', 'set-members', team.id, '--none', '--output', 'json'])).stdout).toMatch(/"members":\[\]/);

    expect((await cli(['teams', 'delete', 'Platform Eng'])).stdout).toBe('Deleted team Platform Eng.\n');
    expect((await cli(['teams', 'list', '--output', 'json'])).stdout).toBe('{"teams":[]}\n');
    expect((await cli(['teams', 'create', 'platform eng'])).code).toBe(0);
  }, 90_000);

  it('a duplicate name exits 1 with the code; an unknown team or user exits 1; set-members without members is a usage error', async () => {
    await cli(['teams', 'create', 'Data']);
    const dup = await cli(['teams', 'create', 'DATA']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists[\s\S]*HTTP 409.*code name_taken/);
    const noTeam = await cli(['teams', 'get', 'Nope']);
    expect(noTeam.code).toBe(1);
    expect(noTeam.stderr).toMatch(/No team "Nope"/);
    const noUser = await cli(['teams', 'add-member', 'Data', 'ghost@acme.test']);
    expect(noUser.code).toBe(1);
    expect(noUser.stderr).toMatch(/No user ghost@acme\.test/);
    const notUser = await cli(['teams', 'add-member', 'Data', '00000000-0000-4000-8000-000000000000']);
    expect(notUser.code).toBe(1);
    expect(notUser.stderr).toMatch(/code user_not_found/);
    expect((await cli(['teams', 'set-members', 'Data'])).code).toBe(2);
  });

  it('a member lists teams but may not change them (exit 1, HTTP 403)', async () => {
    expect((await cli(['teams', 'list'], memberKey)).code).toBe(0);
    const refused = await cli(['teams', 'create', 'Mine'], memberKey);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HTTP 403/);
  });
});

describe('orgctl analytics --team and the allowance forecast', () => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const range = ['--from', yesterday, '--to', yesterday];
  const api = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('--team by name or id and --group-by team print exactly the API body of team_id and group_by=team', async () => {
    const created = await cli(['teams', 'create', 'Insights', '--member', 'mia@acme.test', '--output', 'json']);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const q = `startDate=${yesterday}&endDate=${yesterday}&team_id=${id}`;
    const tokens = await cli(['analytics', 'tokens', ...range, '--team', 'insights', '--group-by', 'team', '--output', 'json']);
    expect(tokens.stderr).toBe('');
    expect(tokens.stdout.trim()).toBe(await api(`/api/v1/analytics/tokens?${q}&group_by=team`));
    const activity = await cli(['analytics', 'activity', ...range, '--team', id, '--output', 'json']);
    expect(activity.stdout.trim()).toBe(await api(`/api/v1/analytics/activity?${q}`));
    const users = await cli(['analytics', 'users', ...range, '--team', 'Insights', '--output', 'json']);
    expect(JSON.parse(users.stdout)).toMatchObject({ data: [], meta: { has_more: false } });
    const unknown = await cli(['analytics', 'tokens', ...range, '--team', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No team "Nope"/);
    expect((await cli(['analytics', 'tools', ...range, '--group-by', 'team'])).code).toBe(2);
  });

  it('limits allowance shows the forecast of the binding budget and, for an owner, the organization', async () => {
    const out = await cli(['limits', 'allowance']);
    expect(out.code).toBe(0);
    // No usage: the month ends at 0 (on the 1st of a month there is no rate yet).
    expect(out.stdout).toMatch(/forecast\s+(month end 0 at 0\/day|no forecast before the first complete day of the month)/);
    expect(out.stdout).toMatch(/organization\s+0 used; /);
    expect((await cli(['limits', 'allowance'], memberKey)).stdout).not.toMatch(/organization/);
  });
});
