import { describe, expect, it } from 'vitest';
import { demoEvents } from '../../src/analytics/demo-data.js';
import { runCli, startServer } from '../helpers/cli.js';
import { onCleanup } from '../helpers/cleanup.js';
import { installation } from '../helpers/installation.js';
import { dayFromToday } from './fixture.js';

describe('orgctl demo seed', { timeout: 120_000 }, () => {
  it('seeds deterministic telemetry through ingestion, idempotently, and analytics shows it', async () => {
    const env = await installation();
    const init = await runCli(['init', '--org', 'demo', '--owner-email', 'owner@demo.test', '--json'], env);
    expect(init.code, init.stderr).toBe(0);
    const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };

    const first = await runCli(['demo', 'seed', '--users', '4', '--days', '10', '--seed', '7', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const seeded = JSON.parse(first.stdout) as { users: number; events: number; accepted: number; duplicates: number; firstDay: string; lastDay: string };
    expect(seeded).toMatchObject({ users: 4, firstDay: dayFromToday(-10), lastDay: dayFromToday(-1), duplicates: 0 });
    expect(seeded.accepted).toBe(seeded.events);

    // The same seed again: the same event ids, so nothing new is stored.
    const again = JSON.parse((await runCli(['demo', 'seed', '--users', '4', '--days', '10', '--seed', '7', '--json'], env)).stdout) as typeof seeded;
    expect(again).toMatchObject({ events: seeded.events, accepted: 0, duplicates: seeded.events });

    // The generator alone, with the same seed, says how many sessions the analytics must show.
    const expected = demoEvents({ userIds: ['a', 'b', 'c', 'd'], days: 10, lastDay: seeded.lastDay, seed: 7 });
    const server = await startServer(env);
    onCleanup(async () => void (await server.stop()));
    const res = await fetch(`${server.url}/api/v1/analytics/activity?startDate=${seeded.firstDay}&endDate=${seeded.lastDay}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { sessions: number; daily_active_users: number }[] };
    expect(body.data).toHaveLength(10);
    expect(body.data.reduce((s, r) => s + r.sessions, 0)).toBe(expected.filter((e) => e.type === 'session_start').length);
    expect(Math.max(...body.data.map((r) => r.daily_active_users))).toBeGreaterThan(0);
    const tools = (await (
      await fetch(`${server.url}/api/v1/analytics/tools?startDate=${seeded.firstDay}&endDate=${seeded.lastDay}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      })
    ).json()) as { data: { tool_calls: number }[] };
    expect(tools.data.reduce((s, r) => s + r.tool_calls, 0)).toBe(expected.filter((e) => e.type === 'tool_call').length);
  });

  it('rejects bad flags with exit code 2', async () => {
    const env = await installation();
    const res = await runCli(['demo', 'seed', '--users', '0', '--days', '10'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--users');
  });
});
