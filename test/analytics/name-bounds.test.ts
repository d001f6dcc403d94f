import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp, type Org } from '../helpers/test-app.js';

// The bounds as docs/analytics.md states them (written out here, not imported, so that the test
// checks the documented promise and not whatever the constants say).
const WORST = {
  tool: { names: 200, bytes: 8000 },
  mcp_server: { names: 50, bytes: 2000 },
  skill: { names: 100, bytes: 4000 },
  slash_command: { names: 100, bytes: 4000 },
  hook: { names: 50, bytes: 6000 },
  extension: { names: 100, bytes: 1000 },
  language: { names: 50, bytes: 1000 },
};
const TOOLS_PER_DAY = WORST.tool.names;
const OTHER = '(other)';
/** The most a day row of /tools can take, however many and however long the names sent. */
const TOOLS_DAY_MAX_BYTES = 48 * 1024;
const PRODUCTIVITY_DAY_MAX_BYTES = 10 * 1024;

const PATH = '/api/v1/telemetry/events';
let t: TestApp;
let org: Org;
let guestKey: string;

beforeAll(async () => {
  t = await TestApp.start({ rateLimits: false });
  org = await t.createOrg('name-bounds-org');
  guestKey = (await t.addUser(org, 'guest')).key;
});
afterAll(() => t?.close());

type Named = { tool?: string; server?: string; name?: string; event?: string; matcher?: string; command?: string; invocations?: number; count?: number };
type ToolsDay = {
  date: string;
  tool_calls: number;
  by_tool: (Named & { tool: string; invocations: number })[];
  mcp_by_server: Named[];
  skills_by_name: Named[];
  slash_commands_by_name: Named[];
  hooks_by_event: Named[];
};

let ids = 0;
const base = (day: string) => ({ id: `e${ids++}`, timestamp: `${day}T10:00:00Z`, sessionId: 's', client: 'terminal-ui' });
const toolCall = (day: string, tool: string) => ({ ...base(day), type: 'tool_call', tool, autonomyLevel: 'manual' });
const post = async (events: unknown[], key = guestKey) => {
  const res = await t.request('POST', PATH, { key, body: { events } });
  expect(res.status, res.raw).toBe(202);
};
/** Batches under the body limit of 1 MiB. */
const postInParts = async (events: unknown[]) => {
  const part: unknown[] = [];
  let bytes = 0;
  for (const e of events) {
    const size = JSON.stringify(e).length;
    if (part.length === 1000 || bytes + size > 900_000) await post(part.splice(0), ((bytes = 0), guestKey));
    part.push(e);
    bytes += size;
  }
  if (part.length > 0) await post(part);
};
const get = (path: string) => t.request<{ data: ToolsDay[] }>('GET', path, { key: org.ownerKey });
const toolsOn = async (day: string) => (await get(`/api/v1/analytics/tools?startDate=${day}&endDate=${day}`)).body.data[0]!;
const names = (prefix: string, n: number, length = 0) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`.padEnd(length, 'x'));

/** The day's tool names keep their bound, the rest count under (other), and every count is exact. */
function expectBoundedTools(day: ToolsDay, sent: number) {
  expect(day.by_tool.filter((x) => x.tool !== OTHER)).toHaveLength(TOOLS_PER_DAY);
  expect(day.by_tool.filter((x) => x.tool === OTHER)).toHaveLength(1);
  expect(day.tool_calls).toBe(sent);
  expect(day.by_tool.reduce((s, x) => s + x.invocations, 0)).toBe(sent);
}

describe('distinct names a guest can add to a day', () => {
  it(`keeps ${TOOLS_PER_DAY} distinct tools a day, counts the rest under ${OTHER}, and every total stays exact`, async () => {
    const day = '2026-09-01';
    const tools = names('tool', TOOLS_PER_DAY + 300);
    await post(tools.slice(0, 400).map((n) => toolCall(day, n)));
    await post(tools.slice(400).map((n) => toolCall(day, n)));
    // A name the day keeps counts as itself; a new one goes to (other).
    await post([toolCall(day, tools[0]!), toolCall(day, 'brand-new')]);
    const row = await toolsOn(day);
    expectBoundedTools(row, tools.length + 2);
    expect(row.by_tool.find((x) => x.tool === tools[0])!.invocations).toBe(2);
    expect(row.by_tool.find((x) => x.tool === OTHER)!.invocations).toBe(tools.length - TOOLS_PER_DAY + 1);
  });

  it('keeps the bound exact when eight batches of eight users each bring new names while one place is left', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await t.addUser(org, i % 2 === 0 ? 'guest' : 'member')).key));
    const known = names('kept', TOOLS_PER_DAY - 1);
    // Each batch: new names of its own, then names the day has. Whether two batches overlap is up
    // to timing, so four days are tried (before the fix, most of them passed the bound on PostgreSQL).
    for (const day of ['2026-09-04', '2026-09-05', '2026-09-06', '2026-09-07']) {
      await post(known.map((n) => toolCall(day, n)));
      const batch = (i: number) => [...names(`new${i}`, 20), ...known].map((n) => toolCall(day, n));
      await Promise.all(keys.map((key, i) => post(batch(i), key)));
      expectBoundedTools(await toolsOn(day), known.length + 8 * batch(0).length);
    }
  });

  it(`keeps a day's /tools under ${TOOLS_DAY_MAX_BYTES / 1024} KB and /productivity under ${PRODUCTIVITY_DAY_MAX_BYTES / 1024} KB, however many and long the names`, async () => {
    const day = '2026-09-03';
    // The most a day can take: each kind filled to both of its bounds, names of just the bytes that
    // allows, and more besides.
    const fill = (kind: keyof typeof WORST, length: number) =>
      names(kind.slice(0, 3), WORST[kind].names + 20, Math.floor(WORST[kind].bytes / WORST[kind].names / length));
    const events = [
      ...fill('tool', 1).map((n) => toolCall(day, n)),
      ...fill('mcp_server', 1).map((n) => ({ ...toolCall(day, 'mcp-tool'), mcpServer: n })),
      ...fill('skill', 1).map((n) => ({ ...base(day), type: 'skill', name: n })),
      ...fill('slash_command', 1).map((n) => ({ ...base(day), type: 'slash_command', name: n })),
      ...fill('hook', 3).map((n) => ({ ...base(day), type: 'hook', event: n, matcher: n, command: n })),
      ...fill('extension', 1).map((n) => ({ ...base(day), type: 'file_change', change: 'created', path: `a.${n}` })),
      ...fill('language', 1).map((n) => ({ ...base(day), type: 'file_change', change: 'edited', path: 'a.ts', language: n })),
      // And names of 200 characters that JSON escapes (six bytes each): they go to (other).
      ...names('long', 50, 0).map((n) => toolCall(day, n.padEnd(200, '\u0001'))),
    ];
    await postInParts(events);
    const tools = await get(`/api/v1/analytics/tools?startDate=${day}&endDate=${day}`);
    const productivity = await get(`/api/v1/analytics/productivity?startDate=${day}&endDate=${day}`);
    expect(Buffer.byteLength(tools.raw)).toBeLessThanOrEqual(TOOLS_DAY_MAX_BYTES);
    expect(Buffer.byteLength(productivity.raw)).toBeLessThanOrEqual(PRODUCTIVITY_DAY_MAX_BYTES);
    const row = tools.body.data[0]!;
    expect(row.tool_calls).toBe(WORST.tool.names + WORST.mcp_server.names + 40 + 50);
    // Every list reached its bound of names (so this was the worst case), with (other) besides.
    const lists = {
      tool: row.by_tool,
      mcp_server: row.mcp_by_server,
      skill: row.skills_by_name,
      slash_command: row.slash_commands_by_name,
      hook: row.hooks_by_event,
    };
    for (const [kind, list] of Object.entries(lists)) {
      expect(
        list.filter((x) => (x.tool ?? x.server ?? x.name ?? x.event) !== OTHER),
        kind,
      ).toHaveLength(WORST[kind as keyof typeof WORST].names);
      expect(
        list.filter((x) => (x.tool ?? x.server ?? x.name ?? x.event) === OTHER),
        kind,
      ).toHaveLength(1);
    }
  });
});
