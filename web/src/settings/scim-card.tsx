import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../api.js';
import { When } from '../ui/dates.js';
import { CopyButton, ErrorNote, Field, QueryState, TableScroll } from '../ui/parts.js';

const scimTokensKey = ['scim-tokens'] as const;
const scimTokensQuery = queryOptions({ queryKey: scimTokensKey, queryFn: () => call(api.GET('/api/v0/organization/scim/tokens')) });

/**
 * SCIM provisioning for owners: the base URL to paste into the identity provider, its tokens
 * (a new one's secret shown once) and their revocation (docs/scim.md).
 */
export function ScimCard() {
  const queryClient = useQueryClient();
  const tokens = useQuery(scimTokensQuery);
  const [name, setName] = useState('');
  const invalidate = () => queryClient.invalidateQueries({ queryKey: scimTokensKey });
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v0/organization/scim/tokens', { body: name ? { name } : {} })),
    onSuccess: () => {
      setName('');
      void invalidate();
    },
  });
  const revoke = useMutation({
    mutationFn: (tokenId: string) => call(api.DELETE('/api/v0/organization/scim/tokens/{tokenId}', { params: { path: { tokenId } } })),
    onSettled: invalidate,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="card" aria-labelledby="scim-title">
      <h2 id="scim-title">Provisioning (SCIM)</h2>
      <p className="muted">
        Your identity provider (Okta, Entra ID) adds, changes and removes people and teams here. Deactivating a person there removes them here: their keys and
        sessions end at once; their history stays.
      </p>
      {tokens.data ? (
        <p>
          SCIM base URL: <code data-testid="scim-base-url">{tokens.data.baseUrl}</code> <CopyButton text={tokens.data.baseUrl} label="Copy URL" />
        </p>
      ) : null}
      <form className="inline" onSubmit={submit}>
        <Field label="Token name">
          <input type="text" maxLength={100} placeholder="Okta" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" disabled={create.isPending}>
          Create SCIM token
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.data ? (
        <div className="secret" role="status">
          <p>The SCIM token “{create.data.name}”, shown only now: paste it into your identity provider.</p>
          <code data-testid="new-scim-token">{create.data.token}</code> <CopyButton text={create.data.token} />
        </div>
      ) : null}
      <ErrorNote error={revoke.error} />
      <QueryState query={tokens} empty={null} />
      {tokens.data && tokens.data.tokens.length > 0 ? (
        <TableScroll label="SCIM tokens">
          <table>
            <caption>SCIM tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>
                    <When ms={t.createdAt} />
                  </td>
                  <td>{t.lastUsedAt === null ? 'never' : <When ms={t.lastUsedAt} />}</td>
                  <td>{t.revokedAt === null ? 'active' : 'revoked'}</td>
                  <td>
                    {t.revokedAt === null ? (
                      <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(t.id)}>
                        Revoke <span className="visually-hidden">{t.name}</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}
