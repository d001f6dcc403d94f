import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { send, type SendPolicy } from './send.js';
import { sign } from './signing.js';
import { slackBody } from './slack.js';
import { contextOf } from '../core/secrets/reseal.js';
import { SecretBox } from '../core/secrets/secret-box.js';
import { ENDPOINT_SECRET, webhooksStore as store, type DueDelivery } from './store.js';

const DAY_MS = 86_400_000;

export interface DeliverySettings {
  /** How often the queue is polled for due deliveries. */
  tickMs: number;
  /** How long a claimed delivery is held before another process may take it. */
  leaseMs: number;
  /** The first retry's delay; each next one doubles, up to a sixth of the retry window. */
  firstRetryMs: number;
  /** How long a delivery is retried, and how long an endpoint may fail before it is disabled (a day). */
  retryWindowMs: number;
  /** A 2xx within this is success (10 s). */
  timeoutMs: number;
  concurrency: number;
  policy: SendPolicy;
}

export const DEFAULT_DELIVERY: Omit<DeliverySettings, 'policy'> = {
  tickMs: 1000,
  leaseMs: 60_000,
  firstRetryMs: 5_000,
  retryWindowMs: DAY_MS,
  timeoutMs: 10_000,
  concurrency: 8,
};

interface Logger {
  warn(obj: object, msg: string): void;
}

/** When a delivery that failed its `attempts`-th attempt is tried again, or null when its window is over. */
function retryAt(created: Date, attempts: number, now: Date, s: Pick<DeliverySettings, 'firstRetryMs' | 'retryWindowMs'>): Date | null {
  const delay = Math.min(s.firstRetryMs * 2 ** Math.max(0, attempts - 1), s.retryWindowMs / 6);
  const at = now.getTime() + delay;
  return at <= created.getTime() + s.retryWindowMs ? new Date(at) : null;
}

/**
 * Sends the queued deliveries, started by `orgctl serve` beside the provisioning engine. Each tick it
 * claims due deliveries (a lease each, FOR UPDATE SKIP LOCKED: any number of processes share the
 * queue) and posts them; a delivery whose process dies is taken again when its lease expires, so
 * every event is delivered at least once, always under its one `webhook-id` and body.
 */
export class DeliveryWorker {
  readonly id = `webhooks:${randomUUID()}`;
  private timer: Timer | undefined;
  private ticking: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly settings: DeliverySettings,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Opens the endpoints' stored secrets (SECRETS_KEY). */
    private readonly secrets: SecretBox = new SecretBox(undefined),
  ) {}

  start(): void {
    this.stopped = false;
    // The loop polls again a tick after claiming, not after its deliveries end: a slow endpoint
    // holds one of `concurrency` places for up to `timeoutMs`, never the others' next deliveries.
    const loop = () => {
      this.ticking = this.claim()
        .then((sends) => {
          for (const s of sends) s.catch((err: unknown) => this.log.warn({ err }, 'webhook delivery failed'));
        })
        .catch((err) => this.log.warn({ err }, 'webhook delivery tick failed'))
        .finally(() => {
          if (!this.stopped) this.timer = this.clock.timeout(loop, this.settings.tickMs, { keepAlive: false });
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims what is due and sends it; resolves when those deliveries are recorded. */
  async tick(): Promise<void> {
    await Promise.all(await this.claim());
  }

  /** Claims what is due, as many as there are free places, and starts sending each: its send, tracked. */
  private async claim(): Promise<Promise<void>[]> {
    const free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return [];
    const claimed = await this.db.transaction(() => store.claim(this.db, this.id, free, this.settings.leaseMs, this.clock.now()));
    return claimed.map((d) => this.track(this.deliver(d)));
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async deliver(d: DueDelivery): Promise<void> {
    const started = this.clock.now();
    const body = d.format === 'slack' ? slackBody(d.type, d.body) : d.body;
    const ts = Math.floor(started.getTime() / 1000);
    const headers = {
      'webhook-id': d.event_id,
      'webhook-timestamp': String(ts),
      'webhook-signature': sign(this.secrets.open(d.secret, contextOf(ENDPOINT_SECRET)), d.event_id, ts, body),
    };
    const result = await send(d.url, headers, body, this.settings.policy, this.clock, this.settings.timeoutMs);
    const now = this.clock.now();
    const next = result.ok ? null : retryAt(d.created_at, d.attempts, now, this.settings);
    await this.db.transaction(async () => {
      const held = await store.finish(
        this.db,
        { id: d.id, owner: d.lease_owner, endpointId: d.endpoint_id },
        { ...result, durationMs: now.getTime() - started.getTime(), retryAt: next },
        now,
      );
      if (!held || result.ok) return;
      const reason = `Disabled after failing for a day; last error: ${result.error ?? 'unknown'}`;
      const disabled = await store.disableIfFailingFor(this.db, d.endpoint_id, this.settings.retryWindowMs, reason, now);
      // The owner is told in the web app and CLI (the endpoint shows as disabled with its reason)
      // and in the service log, which operators watch.
      if (disabled) this.log.warn({ endpointId: disabled.id, orgId: disabled.org_id, url: disabled.url }, 'webhook endpoint disabled after a day of failures');
    });
  }
}
