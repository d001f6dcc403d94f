import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  let endpoint: URL;
  try {
    endpoint = new URL(`${target.url.replace(/\/+$/, '')}/api/v1/telemetry/events`);
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return { sent: false, error: 'the service URL is not an http(s) URL' };
  }
  const post = async (): Promise<TelemetryResult> => {
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}` },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      return res.ok ? { sent: true, status: res.status } : { sent: false, error: `HTTP ${res.status}` };
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      return { sent: false, error: cause ?? (e as Error).name };
    }
  };
  // The abort signal should be enough; the race makes the bound hold even if it is not.
  const late = sleep(timeoutMs + 100, { sent: false, error: 'timeout' } as TelemetryResult, { ref: false });
  return Promise.race([post(), late]);
}
