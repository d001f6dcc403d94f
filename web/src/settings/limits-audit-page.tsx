import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { When } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { Page, QueryState, TableScroll } from '../ui/parts.js';
import { limitsAuditQuery } from './queries.js';

const PAGE = 50;
const value = (n: number | null): string => (n === null ? 'no limit' : number(n));
type Policy = { mode: string; thresholds: number[]; unreachable: string } | null;
const policy = (p: Policy): string =>
  p === null ? '' : `${p.mode}, thresholds ${p.thresholds.length ? p.thresholds.map((t) => `${t}%`).join(' ') : 'none'}, unreachable ${p.unreachable}`;

/** Every change of a limit, newest first, a page of 50 at a time (the API pages by the last id seen). Owners and managers; others read the API's 403. */
export function LimitsAuditPage() {
  // The `before` of each page shown so far; the last is the page on screen (undefined: the newest).
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const before = pages[pages.length - 1];
  const log = useQuery(limitsAuditQuery(PAGE, before));
  const entries = log.data?.entries ?? [];
  const last = entries[entries.length - 1];
  return (
    <Page title="Limit audit log">
      <p>
        <Link to="/settings/usage-limits">Back to usage limits</Link>
      </p>
      <QueryState
        query={log}
        empty={log.data && entries.length === 0 ? (pages.length === 1 ? 'No limit has been changed yet.' : 'No older changes.') : undefined}
      />
      {entries.length > 0 ? (
        <TableScroll label="Limit audit log">
          <table data-testid="audit-log">
            <caption>Changes of usage limits, newest first{pages.length > 1 ? ` (page ${pages.length})` : ''}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Old → new (credits, or the policy)</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>
                    <When ms={e.changedAt} />
                  </td>
                  <td>{e.actorEmail ?? (e.actorId === null ? 'a removed principal' : `service account ${e.actorId}`)}</td>
                  <td>
                    {e.scope === 'policy'
                      ? 'enforcement policy'
                      : e.scope === 'global'
                        ? 'for everyone'
                        : e.scope === 'team'
                          ? `budget of team ${e.targetTeamName ?? ''}`
                          : `of ${e.targetEmail ?? 'a removed user'}`}
                  </td>
                  <td>{e.scope === 'policy' ? `${policy(e.oldPolicy)} → ${policy(e.newPolicy)}` : `${value(e.oldLimit)} → ${value(e.newLimit)}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <div className="row">
        {pages.length > 1 ? (
          <button type="button" className="secondary" onClick={() => setPages((p) => p.slice(0, -1))}>
            Newer changes
          </button>
        ) : null}
        {entries.length === PAGE && last ? (
          <button type="button" className="secondary" disabled={log.isFetching} onClick={() => setPages((p) => [...p, last.id])}>
            Older changes
          </button>
        ) : null}
      </div>
    </Page>
  );
}
