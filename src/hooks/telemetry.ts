import { randomUUID } from 'node:crypto';
import { createApiClient, ServiceUnreachableError, type OrgctlClient } from '../client/api-client.js';
import { systemClock } from '../core/clock.js';
import type { HookEvent } from './events.js';
import type { HookTelemetryEvent } from './schemas.js';
import type { PlannedHook } from './select-hooks.js';

export interface TelemetryTarget {
  /** Base URL of the service, e.g. https://orgctl.example.com */
  url: string;
  apiKey: string;
}

export type TelemetryResult = { sent: true; status: number } | { sent: false; error: string };

export const defaultTelemetryTimeoutMs = 1500;

/** One `hook` event per hook that runs, stamped with the start of the run. */
export function hookTelemetryEvents(o: {
  sessionId: string;
  client: HookTelemetryEvent['client'];
  event: HookEvent;
  hooks: PlannedHook[];
  at: Date;
}): HookTelemetryEvent[] {
  return o.hooks.map((h) => ({
    id: randomUUID(),
    type: 'hook',
    timestamp: o.at.toISOString(),
    sessionId: o.sessionId,
    client: o.client,
    event: o.event,
    matcher: h.matcher,
    command: h.command,
  }));
}

/**
 * Posts the events and settles within `timeoutMs` whatever the service does: down,
 * refusing (settles at once), or accepting and never answering (aborted). Never rejects;
 * telemetry must never change or delay a hook run beyond that bound.
 */
export async function reportHookEvents(target: TelemetryTarget, events: HookTelemetryEvent[], timeoutMs = defaultTelemetryTimeoutMs): Promise<TelemetryResult> {
  let api: OrgctlClient;
  try {
    api = createApiClient({ url: target.url, key: target.apiKey, timeoutMs });
  } catch {
    return { sent: false, error: 'the service URL is not an http(s) URL' };
  }
  const post = async (): Promise<TelemetryResult> => {
    try {
      const { response } = await api.POST('/api/v1/telemetry/events', { body: { events }, parseAs: 'stream' });
      await response.body?.cancel();
      return response.ok ? { sent: true, status: response.status } : { sent: false, error: `HTTP ${response.status}` };
    } catch (e) {
      return { sent: false, error: e instanceof ServiceUnreachableError ? e.reason : (e as Error).name };
    }
  };
  // The timeout should be enough; the race makes the bound hold even if it is not.
  const late = systemClock.sleep(timeoutMs + 100, { keepAlive: false }).then((): TelemetryResult => ({ sent: false, error: 'timeout' }));
  return Promise.race([post(), late]);
}
