import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { send, type SendPolicy } from './send.js';
import { sign } from './signing.js';
import { slackBody } from './slack.js';
import { contextOf } from '../core/secrets/reseal.js';
import { SecretBox } from '../core/secrets/secret-box.js';
import { ENDPOINT_SECRET, webhooksStore as store, type DueDelivery, type Outcome } from './store.js';

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

export interface DeliveryDeps {
  db: Db;
  settings: DeliverySettings;
  clock: Clock;
  log: Logger;
  /** Opens the endpoints' stored secrets (SECRETS_KEY); by default none is sealed. */
  secrets?: SecretBox;
}

/** When a delivery that failed its `attempts`-th attempt is tried again, or null when its window is over. */
function retryAt(created: Date, attempts: number, now: Date, s: Pick<DeliverySettings, 'firstRetryMs' | 'retryWindowMs'>): Date | null {
  const delay = Math.min(s.firstRetryMs * 2 ** Math.max(0, attempts - 1), s.retryWindowMs / 6);
  const at = now.getTime() + delay;
  return at <= created.getTime() + s.retryWindowMs ? new Date(at) : null;
}

/**
 * Sends the queued deliveries, started by `orgctl serve` beside the provisioning engine. Each round
 * it records the outcomes of the sends that ended since the last, then claims due deliveries (a
 * lease each, FOR UPDATE SKIP LOCKED: any number of processes share the queue) and posts them. A
 * round is one statement for the outcomes and one for the claim, however many deliveries they
 * hold. A delivery whose process dies before its outcome is recorded is taken again when its
 * lease expires, so every event is delivered at least once, always under its one `webhook-id` and body.
 */
export class DeliveryWorker {
  readonly id = `webhooks:${randomUUID()}`;
  private timer: Timer | undefined;
  private ticking: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** Outcomes of ended sends, recorded by the next round. */
  private outcomes: Outcome[] = [];
  /** Set when a round filled every free place: more may be due, so the next round starts as soon as one frees. */
  private full = false;
  private stopped = true;

  private readonly db: Db;
  private readonly settings: DeliverySettings;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly secrets: SecretBox;

  constructor({ db, settings, clock, log, secrets = new SecretBox(undefined) }: DeliveryDeps) {
    this.db = db;
    this.settings = settings;
    this.clock = clock;
    this.log = log;
    this.secrets = secrets;
  }

  start(): void {
    this.stopped = false;
    this.loop();
  }

  // A round starts a tick after the last, or sooner when the last filled every place and one has
  // freed; not after its deliveries end: a slow endpoint holds one of `concurrency` places for up
  // to `timeoutMs`, never the others' next deliveries.
  private loop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.ticking = this.round()
      .then((sends) => {
        for (const s of sends) s.catch((err: unknown) => this.log.warn({ err }, 'webhook delivery failed'));
      })
      .catch((err) => this.log.warn({ err }, 'webhook delivery round failed'))
      .finally(() => {
        if (!this.stopped && !this.full) this.timer = this.clock.timeout(() => this.loop(), this.settings.tickMs, { keepAlive: false });
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
    await this.record().catch((err) => this.log.warn({ err }, 'webhook delivery outcomes not recorded'));
  }

  /** Claims what is due and sends it; resolves when those deliveries are recorded. */
  async tick(): Promise<void> {
    await Promise.all(await this.round());
    await this.record();
  }

  /** Records the ended sends' outcomes, then claims what is due, as many as there are free places, and starts sending each. */
  private async round(): Promise<Promise<void>[]> {
    await this.record();
    const free = this.settings.concurrency - this.inFlight.size;
    this.full = free <= 0;
    if (free <= 0) return [];
    const claimed = await store.claim(this.db, this.id, free, this.settings.leaseMs, this.clock.now());
    this.full = claimed.length === free;
    return claimed.map((d) => this.track(this.deliver(d)));
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => {
      this.inFlight.delete(p);
      if (this.full && !this.stopped) {
        this.full = false;
        void this.ticking?.then(() => !this.stopped && this.loop());
      }
    });
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
    const at = this.clock.now();
    const retry = result.ok ? null : retryAt(d.created_at, d.attempts, at, this.settings);
    this.outcomes.push({ id: d.id, ...result, at, durationMs: at.getTime() - started.getTime(), retryAt: retry });
  }

  /** Records the outcomes gathered so far, and disables the endpoints among them that have failed for a day. */
  private async record(): Promise<void> {
    const outcomes = this.outcomes;
    if (outcomes.length === 0) return;
    this.outcomes = [];
    let failing: { endpoint_id: string; last_error: string | null }[];
    try {
      failing = await store.finish(this.db, this.id, outcomes);
    } catch (e) {
      // Kept for the next round; should the leases expire first, the deliveries are sent again.
      this.outcomes.unshift(...outcomes);
      throw e;
    }
    const now = this.clock.now();
    for (const f of failing) {
      const reason = `Disabled after failing for a day; last error: ${f.last_error ?? 'unknown'}`;
      const disabled = await store.disableIfFailingFor(this.db, f.endpoint_id, this.settings.retryWindowMs, reason, now);
      // The owner is told in the web app and CLI (the endpoint shows as disabled with its reason)
      // and in the service log, which operators watch.
      if (disabled) this.log.warn({ endpointId: disabled.id, orgId: disabled.org_id, url: disabled.url }, 'webhook endpoint disabled after a day of failures');
    }
  }
}
