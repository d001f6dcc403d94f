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
  /** How many deliveries a process sends at once. */
  concurrency: number;
  /** How many of those places one organization's deliveries may hold at once. */
  orgShare: number;
  /** How long a succeeded delivery (with its attempts) is kept after its last attempt; its event goes when no delivery is left of it. */
  succeededRetentionMs: number;
  /** How long a failed delivery is kept after its last attempt: longer, for its owners to look into and send again. */
  failedRetentionMs: number;
  /** How often a process prunes what is past its retention, a batch of rows per round until none is left. */
  pruneEveryMs: number;
  pruneBatch: number;
  policy: SendPolicy;
}

export const DEFAULT_DELIVERY: Omit<DeliverySettings, 'policy'> = {
  tickMs: 1000,
  leaseMs: 60_000,
  firstRetryMs: 5_000,
  retryWindowMs: DAY_MS,
  timeoutMs: 10_000,
  concurrency: 8,
  // Half: an organization whose endpoints all hang leaves the other half to every other
  // organization, and alone it still sends four at once.
  orgShare: 4,
  succeededRetentionMs: 30 * DAY_MS,
  failedRetentionMs: 90 * DAY_MS,
  pruneEveryMs: 3600_000,
  pruneBatch: 500,
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
 * lease each, FOR UPDATE SKIP LOCKED: any number of processes share the queue; each organization
 * up to its share of the places) and posts them, and now and then prunes the delivery log. A
 * round is one statement for the outcomes and one for the claim, however many deliveries they
 * hold. A delivery whose process dies before its outcome is recorded is taken again when its
 * lease expires, so every event is delivered at least once, always under its one `webhook-id` and body.
 */
export class DeliveryWorker {
  readonly id = `webhooks:${randomUUID()}`;
  private timer: Timer | undefined;
  private ticking: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** How many of the sends in flight are each organization's. */
  private readonly heldByOrg = new Map<string, number>();
  /** Outcomes of ended sends, recorded by the next round. */
  private outcomes: Outcome[] = [];
  /**
   * Set when a round could not take all that may be due (it filled every free place, or an
   * organization reached its share): the next round starts as soon as a place frees.
   */
  private more = false;
  /** Whether a round of the loop is running, and whether a place freed while it ran. */
  private inRound = false;
  private freedInRound = false;
  /** When this process next prunes; 0 while a pruning round left more to prune. */
  private pruneAt = 0;
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

  // A round starts a tick after the last, or sooner when the last left due deliveries behind and a
  // place has freed; not after its deliveries end: a slow endpoint holds one of `concurrency`
  // places for up to `timeoutMs`, never the others' next deliveries.
  private loop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.inRound = true;
    this.freedInRound = false;
    this.ticking = this.round()
      .then((sends) => {
        for (const s of sends) s.catch((err: unknown) => this.log.warn({ err }, 'webhook delivery failed'));
      })
      .catch((err) => this.log.warn({ err }, 'webhook delivery round failed'))
      .finally(() => {
        this.inRound = false;
        if (this.stopped || this.inFlight.size >= this.settings.concurrency) return;
        // A place that freed while the round ran was not offered to it (the round claimed with the
        // places and shares it saw): another round offers it now, not a tick later.
        if (this.freedInRound) this.loop();
        else this.timer = this.clock.timeout(() => this.loop(), this.settings.tickMs, { keepAlive: false });
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

  /**
   * Records the ended sends' outcomes, claims what is due (as many as there are free places, each
   * organization up to its share) and starts sending each, then prunes if it is time to.
   */
  private async round(): Promise<Promise<void>[]> {
    await this.record();
    const { concurrency, orgShare, leaseMs } = this.settings;
    const free = concurrency - this.inFlight.size;
    this.more = free <= 0;
    if (free <= 0) return [];
    const claimed = await store.claim(this.db, this.id, { limit: free, share: orgShare, held: this.heldByOrg, leaseMs, now: this.clock.now() });
    const sends = claimed.map((d) => this.track(d.org_id, this.deliver(d)));
    this.more = claimed.length === free || [...this.heldByOrg.values()].some((n) => n >= orgShare);
    await this.prune();
    return sends;
  }

  private track(orgId: string, p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    this.heldByOrg.set(orgId, (this.heldByOrg.get(orgId) ?? 0) + 1);
    return p.finally(() => {
      this.inFlight.delete(p);
      const held = this.heldByOrg.get(orgId)! - 1;
      if (held === 0) this.heldByOrg.delete(orgId);
      else this.heldByOrg.set(orgId, held);
      if (this.stopped) return;
      if (this.inRound) this.freedInRound = true;
      else if (this.more) {
        this.more = false;
        this.loop();
      }
    });
  }

  /**
   * Deletes what is past its retention, a batch of each kind per round, so pruning never holds
   * the queue up for long; a full batch leaves more, pruned by the next rounds. Every process
   * prunes; rows another is pruning are skipped.
   */
  private async prune(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now < this.pruneAt) return;
    const s = this.settings;
    this.pruneAt = now + s.pruneEveryMs;
    try {
      const pruned = await store.prune(this.db, {
        succeededBefore: new Date(now - s.succeededRetentionMs),
        failedBefore: new Date(now - s.failedRetentionMs),
        eventsBefore: new Date(now - s.succeededRetentionMs),
        batch: s.pruneBatch,
      });
      if (pruned.deliveries >= s.pruneBatch) this.pruneAt = 0;
    } catch (err) {
      this.log.warn({ err }, 'webhook retention pruning failed');
    }
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
