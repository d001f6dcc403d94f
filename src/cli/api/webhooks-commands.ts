import { unwrap } from '../../client/api-client.js';
import type { components, paths } from '../../client/openapi-types.js';
import { UsageError } from '../../core/cli/args.js';
import type { ApiCommand, FlagSpec } from './command.js';
import { fields, printList, printObject, when } from './print.js';

type Endpoint = components['schemas']['WebhookEndpoint'];
type EventType = paths['/api/v0/organization/webhooks']['post']['requestBody']['content']['application/json']['eventTypes'][number];

const endpoint = { name: 'ENDPOINT', description: "The endpoint's id (orgctl webhooks list)" };
const path = (endpointId: string) => ({ params: { path: { endpointId } } });

// --url is every API command's service address, so the endpoint's own URL is a positional (create) or --endpoint-url (update).
const endpointFlags: Record<string, FlagSpec> = {
  event: { type: 'string', value: 'TYPE', multiple: true, description: 'An event type to send (docs/webhooks.md lists them)' },
  format: { type: 'string', value: 'FORMAT', choices: ['standard', 'slack'], description: 'Body format; slack takes only usage.threshold_crossed' },
  description: { type: 'string', value: 'TEXT', description: 'A note for people' },
};

function describe(e: Endpoint): string[] {
  return fields([
    ['id', e.id],
    ['url', e.url],
    ['events', e.eventTypes.join(', ')],
    ['format', e.format],
    ['enabled', e.enabled ? 'yes' : `no: ${e.disabledReason ?? 'disabled'}`],
    ['failing since', when(e.failingSince)],
    ['description', e.description || '-'],
    ['created', when(e.createdAt)],
  ]);
}

const list: ApiCommand = {
  name: 'webhooks list',
  summary: "The organization's webhook endpoints (owner or manager).",
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/webhooks'));
    const rows = body.endpoints.map((e) => ({
      id: e.id,
      url: e.url,
      events: e.eventTypes.join(ctx.output === 'csv' ? ' ' : ', '),
      format: e.format,
      enabled: e.enabled ? 'yes' : 'disabled',
      reason: e.disabledReason ?? '',
    }));
    printList(ctx, body, rows);
    return 0;
  },
};

const create: ApiCommand = {
  name: 'webhooks create',
  summary: 'Register an endpoint; prints its secret (whsec_…) once (owner or manager).',
  positionals: [{ name: 'URL', description: 'Where deliveries are POSTed (http or https; the network guard applies)' }],
  flags: endpointFlags,
  outputs: ['table', 'json'],
  async run(ctx) {
    const events = (ctx.values.event as string[] | undefined) ?? [];
    if (events.length === 0) throw new UsageError('Name the event types with --event (repeated).');
    const e = await unwrap(
      ctx.api().POST('/api/v0/organization/webhooks', {
        body: {
          url: ctx.positionals[0] as string,
          eventTypes: events as EventType[],
          ...(ctx.values.format ? { format: ctx.values.format as 'standard' | 'slack' } : {}),
          ...(typeof ctx.values.description === 'string' ? { description: ctx.values.description } : {}),
        },
      }),
    );
    printObject(ctx, e, [...describe(e), '', `Signing secret (shown only now, keep it): ${e.secret}`]);
    return 0;
  },
};

const get: ApiCommand = {
  name: 'webhooks get',
  summary: 'An endpoint (owner or manager).',
  positionals: [endpoint],
  outputs: ['table', 'json'],
  async run(ctx) {
    const e = await unwrap(ctx.api().GET('/api/v0/organization/webhooks/{endpointId}', path(ctx.positionals[0] as string)));
    printObject(ctx, e, describe(e));
    return 0;
  },
};

const update: ApiCommand = {
  name: 'webhooks update',
  summary: 'Change an endpoint; --enable turns one disabled after a day of failures back on (owner or manager).',
  positionals: [endpoint],
  flags: {
    ...endpointFlags,
    'endpoint-url': { type: 'string', value: 'URL', description: 'A new URL for the deliveries' },
    enable: { type: 'boolean', description: 'Enable the endpoint' },
    disable: { type: 'boolean', description: 'Disable the endpoint' },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    if (ctx.values.enable && ctx.values.disable) throw new UsageError('--enable and --disable exclude each other.');
    const events = ctx.values.event as string[] | undefined;
    const e = await unwrap(
      ctx.api().PATCH('/api/v0/organization/webhooks/{endpointId}', {
        ...path(ctx.positionals[0] as string),
        body: {
          ...(typeof ctx.values['endpoint-url'] === 'string' ? { url: ctx.values['endpoint-url'] } : {}),
          ...(events?.length ? { eventTypes: events as EventType[] } : {}),
          ...(ctx.values.format ? { format: ctx.values.format as 'standard' | 'slack' } : {}),
          ...(typeof ctx.values.description === 'string' ? { description: ctx.values.description } : {}),
          ...(ctx.values.enable ? { enabled: true } : ctx.values.disable ? { enabled: false } : {}),
        },
      }),
    );
    printObject(ctx, e, describe(e));
    return 0;
  },
};

const remove: ApiCommand = {
  name: 'webhooks delete',
  summary: 'Remove an endpoint and its delivery log (owner or manager).',
  positionals: [endpoint],
  outputs: ['table', 'json'],
  async run(ctx) {
    const id = ctx.positionals[0] as string;
    await unwrap(ctx.api().DELETE('/api/v0/organization/webhooks/{endpointId}', path(id)));
    printObject(ctx, { id, deleted: true }, [`Deleted webhook endpoint ${id}.`]);
    return 0;
  },
};

const deliveries: ApiCommand = {
  name: 'webhooks deliveries',
  summary: "An endpoint's delivery log, newest first (owner or manager).",
  positionals: [endpoint],
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/organization/webhooks/{endpointId}/deliveries', path(ctx.positionals[0] as string)));
    const rows = body.deliveries.map((d) => ({
      id: d.id,
      event: d.eventId,
      type: d.type,
      status: d.status,
      attempts: d.attempts,
      last: d.lastStatusCode ?? d.lastError ?? '',
      created: when(d.createdAt),
    }));
    printList(ctx, body, rows);
    return 0;
  },
};

const resend: ApiCommand = {
  name: 'webhooks resend',
  summary: 'Send a delivery again, with the same event id and body (owner or manager).',
  positionals: [endpoint, { name: 'DELIVERY', description: "The delivery's id (orgctl webhooks deliveries)" }],
  outputs: ['table', 'json'],
  async run(ctx) {
    const [endpointId, deliveryId] = ctx.positionals as [string, string];
    await unwrap(ctx.api().POST('/api/v0/organization/webhooks/{endpointId}/deliveries/{deliveryId}/resend', { params: { path: { endpointId, deliveryId } } }));
    printObject(ctx, { id: deliveryId, queued: true }, [`Delivery ${deliveryId} is queued to be sent again.`]);
    return 0;
  },
};

export const webhooksCommands: readonly ApiCommand[] = [list, create, get, update, remove, deliveries, resend];
