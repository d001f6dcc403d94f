import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_BYTES_PER_USER_DAY, MODEL_BYTES_PER_USER_DAY, NAMES_PER_DAY, MODELS_PER_USER_DAY, NAME_MAX, OTHER } from '../../src/analytics/bounds.js';
import { TestApp, type Org } from '../helpers/test-app.js';

const PATH = '/api/v1/telemetry/events';
let t: TestApp;
let org: Org;
let guestKey: string;

beforeAll(async () => {
  t = await TestApp.start();
  org = await t.createOrg('bounds-org');
  guestKey = (await t.addUser(org, 'guest')).key;
});
afterAll(() => t?.close());

type Hook = { event: string; matcher: string; command: string; count: number };
type ToolsDay = { date: string; hooks_by_event: Hook[]; tools_by_name?: unknown };

const hook = (id: string, day: string, command: string) => ({
  id,
  type: 'hook',
  timestamp: `${day}T10:00:00Z`,
  sessionId: 's',
  client: 'web',
  event: 'Stop',
  matcher: '',
  command,
});
const post = async (events: unknown[]) => expect((await t.request('POST', PATH, { key: guestKey, body: { events } })).status).toBe(202);
const hooksOn = async (day: string) =>
  (await t.request<{ data: ToolsDay[] }>('GET', `/api/v1/analytics/tools?startDate=${day}&endDate=${day}`, { key: org.ownerKey })).body.data[0]!.hooks_by_event;

describe('what one day keeps, whoever sends it', () => {
  const bound = NAMES_PER_DAY.hook.names;

  it(`keeps ${bound} distinct hooks a day; new ones past that count under ${OTHER}, every count exact`, async () => {
    const day = '2026-10-05';
    const names = Array.from({ length: bound + 10 }, (_, i) => `run-${String(i).padStart(4, '0')}`);
    await post(names.slice(0, 30).map((n, i) => hook(`a${i}`, day, n)));
    await post(names.slice(30).map((n, i) => hook(`b${i}`, day, n)));
    // A known name still counts as itself; a new one goes to (other).
    await post([hook('c1', day, names[0]!), hook('c2', day, 'brand-new')]);
    const hooks = await hooksOn(day);
    expect(hooks.length).toBe(bound + 1);
    const other = hooks.find((h) => h.event === OTHER)!;
    expect(other).toEqual({ event: OTHER, matcher: '', command: '', count: names.length - bound + 1 });
    expect(hooks.find((h) => h.command === names[0])!.count).toBe(2);
    expect(hooks.reduce((s, h) => s + h.count, 0)).toBe(names.length + 2);
  });

  it(`keeps ${MODELS_PER_USER_DAY} models on one user's day, the rest under ${OTHER} with exact token sums`, async () => {
    const day = '2026-10-07';
    const request = (i: number, model: string) => ({
      id: `m${i}`,
      type: 'model_request',
      timestamp: `${day}T10:00:00Z`,
      sessionId: 's',
      client: 'web',
      model,
      tier: 'standard',
      inputTokens: 100 + i,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    const models = Array.from({ length: MODELS_PER_USER_DAY + 10 }, (_, i) => `model-${String(i).padStart(3, '0')}`);
    await post(models.map((m, i) => request(i, m)));
    const rows = (
      await t.request<{ data: { group_key: string; input_tokens: number }[] }>(
        'GET',
        `/api/v1/analytics/tokens?startDate=${day}&endDate=${day}&group_by=model`,
        { key: org.ownerKey },
      )
    ).body.data;
    expect(rows).toHaveLength(MODELS_PER_USER_DAY + 1);
    expect(rows.some((r) => r.group_key === OTHER)).toBe(true);
    expect(rows.reduce((s, r) => s + r.input_tokens, 0)).toBe(models.reduce((s, _, i) => s + 100 + i, 0));
    // The most used (here: most tokens) models keep their names.
    expect(rows.map((r) => r.group_key)).toContain(models.at(-1));
  });

  it(`keeps ${MODEL_BYTES_PER_USER_DAY} bytes of model names and ${LANGUAGE_BYTES_PER_USER_DAY} of language names on one user's day, over batches; the rest counted exactly`, async () => {
    const day = '2026-10-08';
    // Models of 150 bytes: 13 fit in 2,000 bytes; sent in two batches, most credits first.
    const models = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}-${'m'.repeat(147)}`);
    const request = (i: number, model: string) => ({
      id: `mb${i}`,
      type: 'model_request',
      timestamp: `${day}T10:00:00Z`,
      sessionId: 's',
      client: 'web',
      model,
      tier: 'standard',
      inputTokens: 1000 - i,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    await post(models.slice(0, 10).map((m, i) => request(i, m)));
    await post(models.slice(10).map((m, i) => request(i + 10, m)));
    const rows = (
      await t.request<{ data: { group_key: string; input_tokens: number }[] }>(
        'GET',
        `/api/v1/analytics/tokens?startDate=${day}&endDate=${day}&group_by=model`,
        { key: org.ownerKey },
      )
    ).body.data;
    expect(rows.map((r) => r.group_key).sort()).toEqual([...models.slice(0, 13), OTHER].sort());
    expect(rows.reduce((s, r) => s + r.input_tokens, 0)).toBe(models.reduce((s, _, i) => s + 1000 - i, 0));

    // Languages of 100 bytes: 10 fit in 1,000 bytes, the first in order.
    const languages = Array.from({ length: 14 }, (_, i) => `${String(i).padStart(2, '0')}${'l'.repeat(98)}`);
    const change = (i: number, language: string) => ({
      id: `lb${i}`,
      type: 'file_change',
      timestamp: `${day}T10:00:00Z`,
      sessionId: 's',
      client: 'web',
      path: `src/f${i}.txt`,
      change: 'edited',
      language,
    });
    await post(languages.slice(7).map((l, i) => change(i + 7, l)));
    await post(languages.slice(0, 7).map((l, i) => change(i, l)));
    const users = await t.request<{ data: { languages: string[] }[] }>('GET', `/api/v1/analytics/users?startDate=${day}&endDate=${day}`, { key: org.ownerKey });
    expect(users.status).toBe(200);
    expect(users.body.data[0]!.languages).toEqual(languages.slice(0, 10));
  });

  it(`cuts a stored name to ${NAME_MAX} characters`, async () => {
    const day = '2026-10-06';
    await post([hook('long-1', day, 'x'.repeat(800))]);
    const [h] = await hooksOn(day);
    expect(h!.command).toHaveLength(NAME_MAX);
    expect(h!.command.endsWith('…')).toBe(true);
  });
});
