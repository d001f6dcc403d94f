import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, call, type Body } from '../api.js';
import { When } from '../ui/dates.js';
import { ErrorNote, Field, Page, QueryState } from '../ui/parts.js';
import { CreateKeyForm, KeyTable, stateOf } from './api-key-parts.js';
import { apiKeysQuery, key, serviceAccountsQuery } from './queries.js';

type ServiceAccount = Body<'/api/v0/organization/service-accounts', 'get'>['serviceAccounts'][number];
type Role = ServiceAccount['role'];

function CreateAccountForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v0/organization/service-accounts', { body: { name, role } })),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: key.serviceAccounts });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <div className="card" aria-labelledby="create-account-title">
      <h2 id="create-account-title">Create a service account</h2>
      <p className="muted">
        A service account is a principal for automation (CI, scripts), with no email and no password: it acts through its API keys, with its role.
      </p>
      <form className="inline" onSubmit={submit}>
        <Field label="Account name">
          <input type="text" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Account role">
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option>member</option>
            <option>manager</option>
          </select>
        </Field>
        <button type="submit" disabled={create.isPending}>
          Create service account
        </button>
      </form>
      <ErrorNote error={create.error} />
    </div>
  );
}

/** One account: what it is, its keys (create, revoke) and its removal. */
function AccountCard({ account }: { account: ServiceAccount }) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const keys = useQuery(apiKeysQuery(account.id));
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/v0/organization/service-accounts/{id}', { params: { path: { id: account.id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: key.serviceAccounts });
      void queryClient.invalidateQueries({ queryKey: key.apiKeys });
    },
  });
  // The keys' own list is fresher than the account's count once a key is made or revoked here.
  const working = keys.data ? keys.data.apiKeys.filter((k) => stateOf(k) === 'active').length : account.activeKeys;
  return (
    <section className="card" aria-labelledby={titleId} data-testid="service-account">
      <h2 id={titleId}>{account.name}</h2>
      <p className="muted">
        Role {account.role}; created <When ms={account.createdAt} />; {working === 1 ? '1 working key' : `${working} working keys`}.
      </p>
      <h3>New key</h3>
      <CreateKeyForm principalId={account.id} nameLabel="Key name" />
      <QueryState query={keys} />
      {keys.data && keys.data.apiKeys.length > 0 ? <KeyTable keys={keys.data.apiKeys} caption={`Keys of ${account.name}`} /> : null}
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(`Remove the service account ${account.name}? Its keys stop working at once and the computers it owns are deleted.`))
            remove.mutate();
        }}
      >
        Remove service account <span className="visually-hidden">{account.name}</span>
      </button>
      <ErrorNote error={remove.error} />
    </section>
  );
}

/** Service accounts and their keys. Owners and managers only: the API answers others with 403, which the page shows. */
export function ServiceAccountsPage() {
  const accounts = useQuery(serviceAccountsQuery);
  return (
    <Page title="Service accounts">
      {accounts.data ? <CreateAccountForm /> : null}
      <QueryState query={accounts} empty={accounts.data?.serviceAccounts.length === 0 ? 'No service accounts yet.' : undefined} />
      {accounts.data?.serviceAccounts.map((a) => (
        <AccountCard key={a.id} account={a} />
      ))}
    </Page>
  );
}
