import { expect } from 'vitest';
import type { Org, TestApp } from '../helpers/test-app.js';
import { YESTERDAY } from './otlp-json.js';

export type Row = Record<string, unknown>;

/** Yesterday's row of an analytics report (the day OTLP test data lands on), as the organization's owner reads it. */
export async function yesterdayRow(t: TestApp, org: Org, report: string, extra = ''): Promise<Row> {
  const res = await t.request<{ data: Row[] }>('GET', `/api/v1/analytics/${report}?startDate=${YESTERDAY}&endDate=${YESTERDAY}${extra}`, { key: org.ownerKey });
  expect(res.status).toBe(200);
  return res.body.data[0] as Row;
}

/** An OTLP/JSON export sent with a key (the owner's by default). */
export const exportJson = (t: TestApp, org: Org, signal: string, body: unknown, key = org.ownerKey) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/${signal}`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
