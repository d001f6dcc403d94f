import type { Org, TestApp } from '../helpers/test-app.js';

/** An event of the hand-built fixture: who, what, when (ISO, UTC) and on which client. */
export type Client = 'terminal-ui' | 'web' | 'non-interactive-cli';
let seq = 0;

export function event(userId: string, type: string, at: string, client: Client, fields: Record<string, unknown> = {}, sessionId = 's') {
  return { id: `fx-${++seq}`, type, timestamp: at, sessionId, client, userId, ...fields };
}

export const tokens = (model: string, tier: string, inputTokens: number, outputTokens: number, cacheReadTokens: number, cacheWriteTokens: number) => ({
  model,
  tier,
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

/** Posts events in batches of at most 1000 with the owner's key; fails loudly on anything but 202. */
export async function ingest(t: TestApp, org: Org, events: unknown[]): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    const res = await t.request('POST', '/api/v1/telemetry/events', { key: org.ownerKey, body: { events: events.slice(i, i + 1000) } });
    if (res.status !== 202) throw new Error(`ingest failed: ${res.status} ${res.raw}`);
  }
}

export function query(path: string, params: Record<string, string | number | undefined>): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `/api/v1/analytics/${path}?${q}`;
}

/** YYYY-MM-DD of today plus `days`, UTC. */
export const dayFromToday = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
