import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';

/** The webhooks API as the tests call it, with the views' fields they read. */
export const WEBHOOKS = '/api/v0/organization/webhooks';

export interface EndpointView {
  id: string;
  url: string;
  secret?: string;
  enabled: boolean;
  disabledReason: string | null;
  eventTypes: string[];
  failingSince: number | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastAttemptAt: number | null;
}

/** Registers an endpoint (201 expected). */
export async function createEndpoint(t: TestApp, key: string, body: Record<string, unknown>): Promise<EndpointView> {
  const res = await t.request<EndpointView>('POST', WEBHOOKS, { key, body });
  expect(res.status).toBe(201);
  return res.body;
}

export async function getEndpoint(t: TestApp, key: string, id: string): Promise<EndpointView> {
  return (await t.request<EndpointView>('GET', `${WEBHOOKS}/${id}`, { key })).body;
}

/** An endpoint's delivery log. */
export async function endpointDeliveries(t: TestApp, key: string, id: string): Promise<DeliveryView[]> {
  return (await t.request<{ deliveries: DeliveryView[] }>('GET', `${WEBHOOKS}/${id}/deliveries`, { key })).body.deliveries;
}
