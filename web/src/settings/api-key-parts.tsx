import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, type Body } from '../api.js';
import { DAY_MS } from '../../../src/core/days.js';
import { keyHolder } from '../../../src/client/key-holder.js';
import { MANAGED_SCOPES } from '../../../src/client/managed-scopes.js';
import { When } from '../ui/dates.js';
import { CopyButton, ErrorNote, Field, TableScroll } from '../ui/parts.js';
import { key } from './queries.js';

type ApiKey = Body<'/api/v0/api-keys', 'get'>['apiKeys'][number];

const EXPIRIES = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'Never', days: 0 },
];

/** What a new key may do: its holder's whole role, or only what a managed install's hooks and exporters call. */
const ACCESS = [
  { value: 'full', label: 'Everything the role allows', scopes: undefined },
  { value: 'managed', label: 'Managed install only (telemetry, allowance reads, session records)', scopes: MANAGED_SCOPES },
] as const;

/** active, revoked or expired. */
export const stateOf = (k: { revokedAt: number | null; expiresAt: number | null }): string =>
  k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt <= Date.now() ? 'expired' : 'active';

/**
 * Creates a key with a name, an expiry and its access (scopes), for the caller or (owners and
 * managers) for `principalId`, and shows its secret once with a copy button.
 */
export function CreateKeyForm({ principalId, nameLabel = 'Name' }: { principalId?: string; nameLabel?: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [days, setDays] = useState(90);
  const [access, setAccess] = useState<(typeof ACCESS)[number]['value']>('full');
  const scopes = ACCESS.find((a) => a.value === access)?.scopes;
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v0/api-keys', {
          body: {
            name,
            ...(principalId ? { principalId } : {}),
            ...(days > 0 ? { expiresAt: Date.now() + days * DAY_MS } : {}),
            ...(scopes ? { scopes: [...scopes] } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: key.apiKeys });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <form className="inline" onSubmit={submit}>
        <Field label={nameLabel}>
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
        <Field label="Access">
          <select value={access} onChange={(e) => setAccess(e.target.value as typeof access)}>
            {ACCESS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
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
    </>
  );
}

/** Keys with prefix, scopes, created, last used, expiry and state; an active key can be revoked. */
export function KeyTable({ keys, caption, holder = false }: { keys: ApiKey[]; caption: string; holder?: boolean }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/api/v0/api-keys/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key.apiKeys }),
  });
  return (
    <>
      <ErrorNote error={revoke.error} />
      <TableScroll label={caption}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              {holder ? <th scope="col">Holder</th> : null}
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                {holder ? <td>{keyHolder(k)}</td> : null}
                <td>{k.scopes.join(', ')}</td>
                <td>
                  <When ms={k.createdAt} />
                </td>
                <td>{k.lastUsedAt === null ? 'never' : <When ms={k.lastUsedAt} />}</td>
                <td>{k.expiresAt === null ? 'never' : <When ms={k.expiresAt} />}</td>
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
      </TableScroll>
    </>
  );
}
