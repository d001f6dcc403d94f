import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Principal } from '../core/identity/roles.js';
import type { Outbox } from '../core/outbox.js';
import { contextOf, resealColumn } from '../core/secrets/reseal.js';
import { SecretBox } from '../core/secrets/secret-box.js';
import { compiledOnUse, jsonAjv, problemsOf } from '../core/validation/ajv.js';
import type { AlertSink, ThresholdCrossed } from '../alerts/service.js';
import { CATALOGUE, EVENT_TYPES, envelope, type EventData, type EventType } from './catalogue.js';
import type { CreateEndpointBody, EndpointView, UpdateEndpointBody } from './schemas.js';
import { refusedUrl, type SendPolicy } from './send.js';
import { newMessageId, newSecret } from './signing.js';
import { ENDPOINT_SECRET, webhooksStore as store, type DeliveryRow, type EndpointRow } from './store.js';

export interface WebhooksDeps {
  db: Db;
  policy: SendPolicy;
  clock?: Clock;
  /** Seals endpoints' secrets where they are stored (SECRETS_KEY); by default none: stored as given. */
  secrets?: SecretBox;
}

/** Endpoints an organization may have: each is signed for and sent to on every event it takes, and it bounds a claim's work. */
export const MAX_ENDPOINTS = 20;

const checks = new Map(EVENT_TYPES.map((t) => [t as string, compiledOnUse(jsonAjv, CATALOGUE[t].data)]));

const ms = (d: Date | null) => (d === null ? null : d.getTime());

const view = (e: EndpointRow): EndpointView => ({
  id: e.id,
  url: e.url,
  description: e.description,
  eventTypes: e.event_types,
  format: e.format,
  enabled: e.enabled,
  disabledReason: e.disabled_reason,
  failingSince: ms(e.failing_since),
  createdAt: e.created_at.getTime(),
  updatedAt: e.updated_at.getTime(),
});

const deliveryView = (d: DeliveryRow) => ({
  id: d.id,
  eventId: d.event_id,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'pending' ? d.next_attempt_at.getTime() : null,
  lastStatusCode: d.last_status_code,
  lastError: d.last_error,
  lastAttemptAt: ms(d.last_attempt_at),
  createdAt: d.created_at.getTime(),
});

/**
 * Outbound webhooks (docs/webhooks.md): the organization's endpoints, and the events the areas emit
 * in their own transactions (an event and its deliveries are rows written with the change they tell
 * of, so none is lost and none is sent for a change that rolled back). DeliveryWorker sends them.
 */
export class WebhooksService implements AlertSink, Outbox {
  private readonly db: Db;
  private readonly policy: SendPolicy;
  private readonly clock: Clock;
  private readonly secrets: SecretBox;

  constructor({ db, policy, clock = systemClock, secrets = new SecretBox(undefined) }: WebhooksDeps) {
    this.db = db;
    this.secrets = secrets;
    this.policy = policy;
    this.clock = clock;
  }

  /**
   * Writes the event for every enabled endpoint that takes its type, in the caller's transaction if
   * it runs in one. The areas emit through the Outbox interface (core/outbox.ts), typed loosely so
   * that core does not depend on this area; the catalogue's test checks each area's data.
   */
  async emit<T extends EventType>(orgId: string, type: T, data: EventData<T>): Promise<void> {
    const check = checks.get(type);
    // An area's data that the catalogue does not describe is the service's own fault: fail loudly.
    if (!check) throw new Error(`webhook event ${type}: not in the catalogue`);
    const problems = problemsOf(check(), data);
    if (problems.length > 0) throw new Error(`webhook event ${type}: data does not match the catalogue: ${JSON.stringify(problems)}`);
    const now = this.clock.now();
    const event = { id: newMessageId(), orgId, type, body: JSON.stringify(envelope(type, now, data)) };
    // Joins the caller's transaction (its COMMIT carries the write), else commits on its own.
    await this.db.transaction(async () => store.emit(this.db, event, now));
  }

  thresholdCrossed(orgId: string, alert: ThresholdCrossed): Promise<void> {
    return this.emit(orgId, 'usage.threshold_crossed', alert);
  }

  private async checkEndpoint(url: string, eventTypes: string[], format: string): Promise<void> {
    const refused = await refusedUrl(url, this.policy);
    const problems = refused ? [{ path: '/url', message: refused }] : [];
    if (format === 'slack' && eventTypes.some((t) => t !== 'usage.threshold_crossed')) {
      problems.push({ path: '/eventTypes', message: 'a slack endpoint takes only usage.threshold_crossed' });
    }
    if (problems.length > 0) throw errors.invalid(problems);
  }

  async create(caller: Principal, body: CreateEndpointBody): Promise<EndpointView & { secret: string }> {
    const format = body.format ?? 'standard';
    await this.checkEndpoint(body.url, body.eventTypes, format);
    const row = {
      id: randomUUID(),
      org_id: caller.orgId,
      url: body.url,
      description: body.description ?? '',
      event_types: body.eventTypes,
      format,
      secret: newSecret(),
      created_by: caller.id,
      created_at: this.clock.now(),
    };
    await this.db.transaction(async () => {
      if ((await store.countLocked(this.db, caller.orgId)) >= MAX_ENDPOINTS) {
        throw errors.conflict(
          'quota_reached',
          `The organization already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have; delete one before adding another.`,
          { limit: MAX_ENDPOINTS },
        );
      }
      await store.insertEndpoint(this.db, { ...row, secret: this.secrets.seal(row.secret, contextOf(ENDPOINT_SECRET)) });
    });
    return { ...(await this.get(caller.orgId, row.id)), secret: row.secret };
  }

  /** Stored signing secrets in the form SECRETS_KEY asks for now (at start). */
  resealSecrets(): Promise<number> {
    return resealColumn(this.db, this.secrets, ENDPOINT_SECRET);
  }

  async list(orgId: string): Promise<EndpointView[]> {
    return (await store.list(this.db, orgId)).map(view);
  }

  async get(orgId: string, id: string): Promise<EndpointView> {
    const row = await store.get(this.db, orgId, id);
    if (!row) throw errors.notFound('Webhook endpoint');
    return view(row);
  }

  async update(orgId: string, id: string, body: UpdateEndpointBody): Promise<EndpointView> {
    const old = await this.get(orgId, id);
    const next = {
      url: body.url ?? old.url,
      description: body.description ?? old.description,
      event_types: body.eventTypes ?? old.eventTypes,
      format: body.format ?? old.format,
      enabled: body.enabled ?? old.enabled,
    };
    await this.checkEndpoint(next.url, next.event_types, next.format);
    await store.update(this.db, orgId, id, next, this.clock.now());
    return this.get(orgId, id);
  }

  async remove(orgId: string, id: string): Promise<void> {
    if (!(await store.remove(this.db, orgId, id))) throw errors.notFound('Webhook endpoint');
  }

  async deliveries(orgId: string, id: string) {
    await this.get(orgId, id);
    return { deliveries: (await store.deliveries(this.db, id, 100)).map(deliveryView) };
  }

  /** Queues a delivery again at once, with the same event id and body. */
  async resend(orgId: string, id: string, deliveryId: string): Promise<void> {
    await this.get(orgId, id);
    if (!(await store.resend(this.db, id, deliveryId, this.clock.now()))) throw errors.notFound('Delivery');
  }
}
