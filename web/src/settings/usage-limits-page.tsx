import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call, isManager, useMe, type Body } from '../api.js';
import { number } from '../ui/format.js';
import { allowanceKey } from '../usage/queries.js';
import { ErrorNote, Field, Page, QueryState, TableScroll } from '../ui/parts.js';
import { CreditsField, NOT_A_NUMBER, parseCredits } from './credits-field.js';
import { ForecastCard } from '../usage/forecast.js';
import { EnforcementCard } from './enforcement-card.js';
import { key, membersQuery, userLimitsQuery } from './queries.js';

type UserLimits = Body<'/api/v0/organization/usage/limits/users', 'get'>;
type Result = Body<'/api/v0/organization/usage/limits/users', 'put'>;

const credits = (n: number | null): string => (n === null ? 'No limit' : `${number(n)} credits`);

/** After a change: the limits, the audit log and the caller's own allowance may all have moved. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    for (const queryKey of [key.limits, key.limitsAudit, allowanceKey]) void queryClient.invalidateQueries({ queryKey });
  };
}

/** Sets or removes individual overrides in one PUT; null removes. */
function useSetUsers(onSuccess?: (r: Result) => void) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (users: { email: string; limit: number | null }[]) => call(api.PUT('/api/v0/organization/usage/limits/users', { body: { users } })),
    onSuccess: (r) => {
      refresh();
      onSuccess?.(r);
    },
  });
}

function GlobalLimitCard({ limit, manager }: { limit: number | null; manager: boolean }) {
  const refresh = useRefresh();
  const [text, setText] = useState('');
  const [bad, setBad] = useState(false);
  const set = useMutation({
    mutationFn: (value: number | null) => call(api.PUT('/api/v0/organization/usage/limits/global', { body: { limit: value } })),
    onSuccess: () => {
      setText('');
      refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = parseCredits(text);
    setBad(value === undefined);
    if (value !== undefined) set.mutate(value);
  };
  return (
    <div className="card" aria-labelledby="global-title">
      <h2 id="global-title">Per-user limit for everyone</h2>
      <p>
        <span data-testid="global-limit">{credits(limit)}</span>{' '}
        <span className="muted">per user per calendar month (UTC), unless a user has an override below.</span>
      </p>
      {manager ? (
        <>
          <form className="inline" onSubmit={submit}>
            <CreditsField label="New limit (Standard Credits, at least 1,000,000)" value={text} onChange={setText} />
            <button type="submit" disabled={set.isPending}>
              Set limit
            </button>
            {limit !== null ? (
              <button type="button" className="danger" disabled={set.isPending} onClick={() => set.mutate(null)}>
                Remove limit
              </button>
            ) : null}
          </form>
          {bad ? (
            <p className="error" role="alert">
              {NOT_A_NUMBER}
            </p>
          ) : null}
          <ErrorNote error={set.error} />
        </>
      ) : null}
    </div>
  );
}

function OverrideRow({ email, limit, manager }: { email: string; limit: number; manager: boolean }) {
  const [text, setText] = useState(String(limit));
  const [bad, setBad] = useState(false);
  const set = useSetUsers();
  const save = (e: FormEvent) => {
    e.preventDefault();
    const value = parseCredits(text);
    setBad(value === undefined);
    if (value !== undefined) set.mutate([{ email, limit: value }]);
  };
  const failed = set.data?.errors[0];
  return (
    <tr>
      <td>{email}</td>
      <td data-testid="override-limit">{credits(limit)}</td>
      {manager ? (
        <td>
          <form className="inline" onSubmit={save}>
            <input type="text" inputMode="numeric" aria-label={`New limit of ${email}`} value={text} onChange={(e) => setText(e.target.value)} />
            <button type="submit" className="secondary" disabled={set.isPending}>
              Save <span className="visually-hidden">the limit of {email}</span>
            </button>
            <button type="button" className="danger" disabled={set.isPending} onClick={() => set.mutate([{ email, limit: null }])}>
              Remove <span className="visually-hidden">the override of {email}</span>
            </button>
          </form>
          {bad ? (
            <p className="error" role="alert">
              {NOT_A_NUMBER}
            </p>
          ) : null}
          {failed ? (
            <p className="error" role="alert">
              {failed.error}
            </p>
          ) : null}
          <ErrorNote error={set.error} />
        </td>
      ) : null}
    </tr>
  );
}

function Overrides({ data, manager }: { data: UserLimits; manager: boolean }) {
  if (data.users.length === 0) return <p className="muted">No user has an individual limit: the limit for everyone applies to all.</p>;
  // A row's edit form is wider than a phone: the table scrolls in its own region, not the page.
  return (
    <TableScroll label="Individual limits">
      <table>
        <caption>Individual limits (they replace the limit for everyone)</caption>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Limit</th>
            {manager ? <th scope="col">Change</th> : null}
          </tr>
        </thead>
        <tbody>
          {data.users.map((u) => (
            <OverrideRow key={`${u.email}:${u.limit}`} email={u.email} limit={u.limit} manager={manager} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The API's most users in one PUT …/limits/users. */
const MAX_BULK = 100;

/** Chooses members (and any emails typed) and sets or removes one limit for all of them in one PUT. */
function BulkEdit({ overrides }: { overrides: Map<string, number> }) {
  const members = useQuery(membersQuery);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [others, setOthers] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const set = useSetUsers((r) => {
    // Those changed are no longer chosen; those the API refused stay chosen, to try again.
    const refused = new Set(r.errors.map((e) => e.email.toLowerCase()));
    setChosen((c) => new Set([...c].filter((e) => refused.has(e))));
    setOthers((o) =>
      o
        .split(/[\s,;]+/)
        .filter((e) => refused.has(e.toLowerCase()))
        .join('\n'),
    );
  });
  const emails = (): string[] => [...new Set([...chosen, ...others.split(/[\s,;]+/).filter(Boolean)].map((e) => e.toLowerCase()))];
  const apply = (limit: number | null) => {
    const users = emails();
    if (users.length === 0) return setProblem('Choose at least one member or type an email.');
    if (users.length > MAX_BULK) return setProblem(`At most ${MAX_BULK} users at once: ${users.length} are chosen.`);
    setProblem(undefined);
    set.mutate(users.map((email) => ({ email, limit })));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = parseCredits(text);
    if (value === undefined) return setProblem(NOT_A_NUMBER);
    apply(value);
  };
  const toggle = (email: string) =>
    setChosen((c) => {
      const next = new Set(c);
      if (next.has(email)) next.delete(email);
      else next.add(email);
      return next;
    });
  const needle = filter.trim().toLowerCase();
  const shown = (members.data?.members ?? []).filter((m) => !needle || m.email.includes(needle) || m.name.toLowerCase().includes(needle));
  const shownChosen = shown.filter((m) => chosen.has(m.email)).length;
  // Select all acts on the members shown: with a filter, on those it matches.
  const toggleAll = () =>
    setChosen((c) => {
      const next = new Set(c);
      for (const m of shown) {
        if (shownChosen === shown.length) next.delete(m.email);
        else next.add(m.email);
      }
      return next;
    });
  return (
    <div className="card" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Set individual limits</h2>
      <p className="muted">
        Choose one or more users, then set one limit for all of them, or remove their individual limits (the limit for everyone then applies).
      </p>
      <QueryState query={members} />
      {members.data ? (
        <>
          <Field label="Filter members">
            <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </Field>
          <fieldset className="choices">
            <legend>
              Members ({chosen.size} chosen of {members.data.members.length})
            </legend>
            {shown.length > 1 ? (
              <label className="check select-all">
                <input
                  type="checkbox"
                  checked={shownChosen === shown.length}
                  ref={(el) => {
                    if (el) el.indeterminate = shownChosen > 0 && shownChosen < shown.length;
                  }}
                  onChange={toggleAll}
                />
                {needle ? `Select all ${shown.length} shown` : 'Select all'}
              </label>
            ) : null}
            {shown.map((m) => (
              <label key={m.id} className="check">
                <input type="checkbox" checked={chosen.has(m.email)} onChange={() => toggle(m.email)} />
                {m.email}
                {m.name !== m.email ? <span className="muted"> {m.name}</span> : null}
                {overrides.has(m.email) ? <span className="muted"> (now {number(overrides.get(m.email))})</span> : null}
              </label>
            ))}
          </fieldset>
        </>
      ) : null}
      <form onSubmit={submit}>
        <Field label="Other emails (one a line, optional)">
          <textarea rows={2} value={others} onChange={(e) => setOthers(e.target.value)} />
        </Field>
        <div className="row-inline">
          <CreditsField label="Limit for them (Standard Credits, at least 1,000,000)" value={text} onChange={setText} />
          <button type="submit" disabled={set.isPending}>
            Set for the chosen users
          </button>
          <button type="button" className="danger" disabled={set.isPending} onClick={() => apply(null)}>
            Remove their individual limits
          </button>
        </div>
      </form>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <ErrorNote error={set.error} />
      {set.data ? <BulkResult result={set.data} /> : null}
    </div>
  );
}

function BulkResult({ result }: { result: Result }) {
  return (
    <div role="status" data-testid="bulk-result">
      {result.updated.length > 0 ? <p>Changed: {result.updated.map((u) => `${u.email} (${credits(u.limit)})`).join(', ')}.</p> : null}
      {result.errors.length > 0 ? (
        <>
          <p className="error">Not changed:</p>
          <ul className="error">
            {result.errors.map((e) => (
              <li key={e.email}>
                {e.email}: {e.error}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** The global limit, the individual overrides and their bulk edit. Everyone may read the limits; only owners and managers change them (the API decides). */
export function UsageLimitsPage() {
  const limits = useQuery(userLimitsQuery);
  const manager = isManager(useMe().role);
  return (
    <Page title="Usage limits">
      <p className="muted">
        Standard Credits each user may use per calendar month (UTC).{' '}
        {manager ? <Link to="/settings/usage-limits/audit">Audit log of limit changes</Link> : 'Only owners and managers change them.'}
      </p>
      <QueryState query={limits} />
      {limits.data ? (
        <>
          <GlobalLimitCard limit={limits.data.global} manager={manager} />
          <Overrides data={limits.data} manager={manager} />
          {manager ? <BulkEdit overrides={new Map(limits.data.users.map((u) => [u.email, u.limit]))} /> : null}
        </>
      ) : null}
      <EnforcementCard manager={manager} />
      {manager ? <ForecastCard /> : null}
    </Page>
  );
}
