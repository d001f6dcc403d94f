import { Type, type Static } from '@sinclair/typebox';
import { UuidParam } from '../core/http/params.js';
import { EventTypeSchema } from './catalogue.js';

const Uuid = Type.String({ format: 'uuid' });
const EpochMs = Type.Integer({ minimum: 0, description: 'Unix time in milliseconds' });

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'An http(s) URL the network guard allows (docs/webhooks.md)' });
const EventTypes = Type.Array(EventTypeSchema, { minItems: 1, uniqueItems: true });
const Format = Type.Union([Type.Literal('standard'), Type.Literal('slack')], {
  description: 'standard: the Standard Webhooks body; slack: a Slack incoming-webhook body (usage.threshold_crossed only)',
});
const Description = Type.String({ maxLength: 200 });

export const EndpointParams = Type.Object({ endpointId: UuidParam('Webhook endpoint', 'not_found') });
export const DeliveryParams = Type.Object({ endpointId: UuidParam('Webhook endpoint', 'not_found'), deliveryId: UuidParam('Delivery', 'not_found') });

export const CreateEndpointBody = Type.Object(
  { url: Url, eventTypes: EventTypes, format: Type.Optional(Format), description: Type.Optional(Description) },
  { additionalProperties: false },
);
export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    eventTypes: Type.Optional(EventTypes),
    format: Type.Optional(Format),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables an endpoint disabled after a day of failures' })),
  },
  { additionalProperties: false },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;
export type UpdateEndpointBody = Static<typeof UpdateEndpointBody>;

export const Endpoint = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    description: Type.String(),
    eventTypes: Type.Array(Type.String()),
    format: Format,
    enabled: Type.Boolean(),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    failingSince: Type.Union([EpochMs, Type.Null()]),
    createdAt: EpochMs,
    updatedAt: EpochMs,
  },
  { $id: 'WebhookEndpoint', title: 'WebhookEndpoint' },
);
export type EndpointView = Static<typeof Endpoint>;
export const CreatedEndpoint = Type.Composite([Endpoint, Type.Object({ secret: Type.String({ description: 'whsec_…: shown only now' }) })]);
export const EndpointList = Type.Object({ endpoints: Type.Array(Type.Ref(Endpoint)) });

const Delivery = Type.Object({
  id: Uuid,
  eventId: Type.String({ description: 'The webhook-id header' }),
  type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([EpochMs, Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastAttemptAt: Type.Union([EpochMs, Type.Null()]),
  createdAt: EpochMs,
});
export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery, { description: 'Newest first, at most 100' }) });
