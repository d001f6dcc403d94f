import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, type Body } from '../api.js';
import { When } from '../ui/dates.js';
import { CopyButton, ErrorNote, Field, Page, QueryState, TableScroll } from '../ui/parts.js';
import { ssoConfigQuery, ssoEventsQuery, ssoKey } from './queries.js';

type Config = Body<'/api/v0/organization/sso', 'get'>;
type MappedRole = Config['roleMapping'][string];

/** `group = value` lines, one a line, as the form shows a mapping. */
const toLines = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([g, v]) => `${g} = ${v}`)
    .join('\n');
const fromLines = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.lastIndexOf('=')).trim(), l.slice(l.lastIndexOf('=') + 1).trim()]),
  );

function ConfigForm({ config }: { config: Config | null }) {
  const queryClient = useQueryClient();
  const [issuer, setIssuer] = useState(config?.issuer ?? '');
  const [clientId, setClientId] = useState(config?.clientId ?? '');
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState(config?.allowedDomains.join(', ') ?? '');
  const [groupsClaim, setGroupsClaim] = useState(config?.groupsClaim ?? 'groups');
  const [roles, setRoles] = useState(toLines(config?.roleMapping ?? {}));
  const [teams, setTeams] = useState(toLines(config?.teamMapping ?? {}));
  const [required, setRequired] = useState(config?.required ?? false);
  const [trustUnverified, setTrustUnverified] = useState(config?.trustUnverifiedEmails ?? false);
  // The stored secret is for the stored issuer only: a new issuer needs its own.
  const secretNeeded = !config || issuer.trim() !== config.issuer;
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/api/v0/organization/sso', {
          body: {
            issuer: issuer.trim(),
            clientId: clientId.trim(),
            ...(secret ? { clientSecret: secret } : {}),
            allowedDomains: domains
              .split(/[\s,]+/)
              .map((d) => d.trim())
              .filter(Boolean),
            groupsClaim: groupsClaim.trim() || 'groups',
            roleMapping: fromLines(roles) as Record<string, MappedRole>,
            teamMapping: fromLines(teams),
            required,
            trustUnverifiedEmails: trustUnverified,
          },
        }),
      ),
    onSuccess: (saved) => {
      setSecret('');
      queryClient.setQueryData(ssoKey.config, saved);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="sso-config-title">
      <h2 id="sso-config-title">OpenID Connect</h2>
      {config ? (
        <p>
          Redirect URI to register at the provider: <code data-testid="redirect-uri">{config.redirectUri}</code> <CopyButton text={config.redirectUri} />
        </p>
      ) : (
        <p className="muted">Not configured: everyone signs in with a password.</p>
      )}
      <Field label="Issuer URL">
        <input type="url" required value={issuer} onChange={(e) => setIssuer(e.target.value)} />
      </Field>
      <Field label="Client ID">
        <input required value={clientId} onChange={(e) => setClientId(e.target.value)} />
      </Field>
      <Field label={secretNeeded ? 'Client secret' : 'Client secret (set; leave empty to keep it)'}>
        <input type="password" autoComplete="off" required={secretNeeded} value={secret} onChange={(e) => setSecret(e.target.value)} />
      </Field>
      <Field label="Allowed email domains (comma-separated)">
        <input required value={domains} onChange={(e) => setDomains(e.target.value)} />
      </Field>
      {config && config.domains.length > 0 ? <Domains domains={config.domains} /> : null}
      <Field label="Groups claim">
        <input value={groupsClaim} onChange={(e) => setGroupsClaim(e.target.value)} />
      </Field>
      <Field label="Role mapping: group = manager, member or guest, one a line">
        <textarea rows={3} value={roles} onChange={(e) => setRoles(e.target.value)} />
      </Field>
      <Field label="Team mapping: group = team name, one a line">
        <textarea rows={3} value={teams} onChange={(e) => setTeams(e.target.value)} />
      </Field>
      <label className="check">
        <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} /> Require SSO: passwords work only for owners (break-glass)
      </label>
      <label className="check">
        <input type="checkbox" checked={trustUnverified} onChange={(e) => setTrustUnverified(e.target.checked)} /> Trust the provider&apos;s emails without{' '}
        <code>email_verified</code> (only for a provider that never sends it, such as Entra ID)
      </label>
      <ErrorNote error={save.error} />
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <button type="submit" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

/** Each claimed domain and its state: a pending one signs no one in until the instance operator verifies it. */
function Domains({ domains }: { domains: Config['domains'] }) {
  const pending = domains.some((d) => !d.verified);
  return (
    <div>
      <ul data-testid="sso-domains" aria-label="Domains">
        {domains.map((d) => (
          <li key={d.domain}>
            <code>{d.domain}</code>:{' '}
            {d.verified ? (
              <span>verified{d.verifiedBy === 'allow_list' ? " (the operator's allow-list)" : ''}</span>
            ) : (
              <span>
                pending, token <code>{d.verificationToken}</code> <CopyButton text={d.verificationToken ?? ''} />
              </span>
            )}
          </li>
        ))}
      </ul>
      {pending ? (
        <p className="muted">
          A pending domain signs no one in. Give its token to the operator of this orgctl, who checks that your organization holds the domain and runs{' '}
          <code>orgctl sso verify-domain DOMAIN --token TOKEN</code>.
        </p>
      ) : null}
    </div>
  );
}

function Events() {
  const events = useQuery(ssoEventsQuery);
  const list = events.data?.events ?? [];
  return (
    <div className="card" aria-labelledby="sso-events-title">
      <h2 id="sso-events-title">Sign-in events</h2>
      <QueryState query={events} empty={events.data && list.length === 0 ? 'No sign-in events yet.' : undefined} />
      {list.length > 0 ? (
        <TableScroll label="Sign-in events">
          <table data-testid="sso-events">
            <caption>The latest 100, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Who</th>
                <th scope="col">Why or what changed</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.id}>
                  <td>
                    <When ms={e.at} />
                  </td>
                  <td>{e.kind.replaceAll('_', ' ')}</td>
                  <td>{e.email ?? ''}</td>
                  <td>{e.reason ?? (Object.keys(e.detail).length ? JSON.stringify(e.detail) : '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </div>
  );
}

/** Single sign-on settings and the sign-in events: owners only (others read the API's 403). */
export function SsoPage() {
  const config = useQuery(ssoConfigQuery);
  return (
    <Page title="Single sign-on">
      <QueryState query={config} />
      {config.data !== undefined ? <ConfigForm config={config.data} /> : null}
      <Events />
    </Page>
  );
}
