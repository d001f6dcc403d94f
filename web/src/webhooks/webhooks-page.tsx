import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { paths } from '../../../src/client/openapi-types.js';
import { api, call, type Body } from '../api.js';
import { dateTime } from '../ui/dates.js';
import { CopyButton, ErrorNote, Field, Page, QueryState, TableScroll } from '../ui/parts.js';

type Endpoint = Body<'/api/v0/organization/webhooks', 'get'>['endpoints'][number];
type EventType = paths['/api/v0/organization/webhooks']['post']['requestBody']['content']['application/json']['eventTypes'][number];

const EVENT_TYPES: EventType[] = [
  'usage.threshold_crossed',
  'computer.ready',
  'computer.failed',
  'readiness.report_created',
  'readiness.level_changed',
  'ci.pull_request_opened',
  'member.added',
  'member.removed',
];

const webhooksKey = ['webhooks'] as const;
const endpointsQuery = queryOptions({ queryKey: webhooksKey, queryFn: () => call(api.GET('/api/v0/organization/webhooks')) });
const deliveriesQuery = (endpointId: string) =>
  queryOptions({
    queryKey: [...webhooksKey, endpointId, 'deliveries'],
    queryFn: () => call(api.GET('/api/v0/organization/webhooks/{endpointId}/deliveries', { params: { path: { endpointId } } })),
  });

function useWebhooksChange<A>(change: (arg: A) => Promise<unknown>, done?: (result: unknown) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: webhooksKey });
      done?.(result);
    },
  });
}

function CreateEndpointForm() {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<EventType[]>(['usage.threshold_crossed']);
  const [slack, setSlack] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useWebhooksChange(
    () =>
      call(
        api.POST('/api/v0/organization/webhooks', {
          body: { url, eventTypes: slack ? ['usage.threshold_crossed'] : types, format: slack ? 'slack' : 'standard' },
        }),
      ),
    (created) => {
      setSecret((created as { secret: string }).secret);
      setUrl('');
    },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(undefined);
  };
  return (
    <div className="card" aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Add an endpoint</h2>
      <form onSubmit={submit}>
        <Field label="Endpoint URL">
          <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
        </Field>
        <fieldset>
          <legend>Events</legend>
          {EVENT_TYPES.map((t) => (
            <label key={t} className="check">
              <input
                type="checkbox"
                checked={slack ? t === 'usage.threshold_crossed' : types.includes(t)}
                disabled={slack}
                onChange={(e) => setTypes(e.target.checked ? [...types, t] : types.filter((x) => x !== t))}
              />{' '}
              {t}
            </label>
          ))}
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={slack} onChange={(e) => setSlack(e.target.checked)} /> Slack incoming webhook (threshold alerts only)
        </label>
        <button type="submit" disabled={create.isPending}>
          Add endpoint
        </button>
      </form>
      <ErrorNote error={create.error} />
      {secret ? (
        <p role="status">
          Signing secret, shown only now: <code data-testid="webhook-secret">{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
    </div>
  );
}

function DeliveryLog({ endpoint }: { endpoint: Endpoint }) {
  const log = useQuery(deliveriesQuery(endpoint.id));
  const resend = useWebhooksChange((deliveryId: string) =>
    call(api.POST('/api/v0/organization/webhooks/{endpointId}/deliveries/{deliveryId}/resend', { params: { path: { endpointId: endpoint.id, deliveryId } } })),
  );
  const rows = log.data?.deliveries ?? [];
  return (
    <>
      <QueryState query={log} empty={log.data && rows.length === 0 ? 'No deliveries yet.' : undefined} />
      {rows.length > 0 ? (
        <TableScroll label={`Deliveries to ${endpoint.url}`}>
          <table>
            <caption>Delivery log</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td>
                    {d.type}
                    <br />
                    <code className="muted">{d.eventId}</code>
                  </td>
                  <td>{d.status}</td>
                  <td>{d.attempts}</td>
                  <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                  <td>{dateTime(d.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate(d.id)}
                      aria-label={`Send again ${d.eventId}`}
                    >
                      Send again
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <ErrorNote error={resend.error} />
    </>
  );
}

function EndpointCard({ endpoint }: { endpoint: Endpoint }) {
  const titleId = `endpoint-${endpoint.id}`;
  const toggle = useWebhooksChange(() =>
    call(api.PATCH('/api/v0/organization/webhooks/{endpointId}', { params: { path: { endpointId: endpoint.id } }, body: { enabled: !endpoint.enabled } })),
  );
  const remove = useWebhooksChange(() => call(api.DELETE('/api/v0/organization/webhooks/{endpointId}', { params: { path: { endpointId: endpoint.id } } })));
  return (
    <div className="card" role="region" aria-labelledby={titleId}>
      <h2 id={titleId}>{endpoint.url}</h2>
      <p>
        {endpoint.format === 'slack' ? 'Slack format; ' : ''}events: {endpoint.eventTypes.join(', ')}
      </p>
      <p data-testid="endpoint-state">{endpoint.enabled ? 'Enabled' : `Disabled: ${endpoint.disabledReason ?? 'by an owner or manager'}`}</p>
      <div className="inline">
        <button type="button" className="secondary" onClick={() => toggle.mutate(undefined)} disabled={toggle.isPending}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            if (window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`)) remove.mutate(undefined);
          }}
        >
          Delete
        </button>
      </div>
      <ErrorNote error={toggle.error ?? remove.error} />
      <DeliveryLog endpoint={endpoint} />
    </div>
  );
}

/** Settings → Webhooks (owners and managers): endpoints, their secret once, the delivery log and "send again". */
export function WebhooksPage() {
  const endpoints = useQuery(endpointsQuery);
  return (
    <Page title="Webhooks">
      <p className="muted">orgctl POSTs the events each endpoint takes, signed as Standard Webhooks, and retries failures for a day.</p>
      <CreateEndpointForm />
      <QueryState query={endpoints} empty={endpoints.data?.endpoints.length === 0 ? 'No endpoints yet.' : undefined} />
      {endpoints.data?.endpoints.map((e) => (
        <EndpointCard key={e.id} endpoint={e} />
      ))}
    </Page>
  );
}
