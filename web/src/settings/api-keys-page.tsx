import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../api.js';
import { dateTime } from '../ui/format.js';
import { CopyButton, ErrorNote, Field, Loading, Page } from '../ui/parts.js';

const EXPIRIES = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'Never', days: 0 },
];

const stateOf = (k: { revokedAt: number | null; expiresAt: number | null }): string => (k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt <= Date.now() ? 'expired' : 'active');

export function ApiKeysPage() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [days, setDays] = useState(90);
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => call(api.GET('/api/v0/api-keys')) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-keys'] });
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v0/api-keys', { body: { name, ...(days > 0 ? { expiresAt: Date.now() + days * 86_400_000 } : {}) } })),
    onSuccess: () => {
      setName('');
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => call(api.DELETE('/api/v0/api-keys/{id}', { params: { path: { id } } })), onSettled: refresh });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Page title="API keys">
      <div className="card" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        <p className="muted">A key acts as you, with your role, for the API and the `orgctl` command line.</p>
        <form className="inline" onSubmit={submit}>
          <Field label="Name">
            <input type="text" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Expires after">
            <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {EXPIRIES.map((x) => (
                <option key={x.days} value={x.days}>
                  {x.label}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={create.isPending}>
            Create key
          </button>
        </form>
        <ErrorNote error={create.error} />
        {create.data ? (
          <div className="secret" role="status">
            <p>The secret of “{create.data.name}”, shown only now: copy it and keep it somewhere safe.</p>
            <code data-testid="new-key-secret">{create.data.key}</code> <CopyButton text={create.data.key} />
          </div>
        ) : null}
      </div>
      {keys.isPending ? <Loading /> : <ErrorNote error={keys.error} />}
      <ErrorNote error={revoke.error} />
      {keys.data ? (
        <table>
          <caption>Keys (owners and managers see the organization's)</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Holder</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.apiKeys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{k.principalEmail ?? k.principalId}</td>
                <td>{dateTime(k.createdAt)}</td>
                <td>{k.lastUsedAt === null ? 'never' : dateTime(k.lastUsedAt)}</td>
                <td>{k.expiresAt === null ? 'never' : dateTime(k.expiresAt)}</td>
                <td>{stateOf(k)}</td>
                <td>
                  {stateOf(k) === 'active' ? (
                    <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(k.id)}>
                      Revoke <span className="visually-hidden">{k.name}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Page>
  );
}
