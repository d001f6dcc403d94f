import { useQuery } from '@tanstack/react-query';
import { api, call, isManager, useMe } from '../api.js';
import { dateTime } from '../ui/dates.js';
import { number } from '../ui/format.js';
import { Page, QueryState, TableScroll } from '../ui/parts.js';

/** Usage alerts: a person's own, or every alert of the organization for owners and managers. */
export function AlertsPage() {
  const me = useMe();
  const alerts = useQuery({ queryKey: ['alerts'], queryFn: () => call(api.GET('/api/v0/alerts', { params: { query: { limit: 100 } } })) });
  const rows = alerts.data?.alerts ?? [];
  return (
    <Page title="Alerts">
      <p className="muted">
        {isManager(me.role)
          ? 'Every alert of the organization: a person, a team or the organization reached a share of its monthly budget.'
          : 'Your alerts: you reached a share of your monthly limit.'}
      </p>
      <QueryState query={alerts} empty={alerts.data && rows.length === 0 ? 'No alerts.' : undefined} />
      {rows.length > 0 ? (
        <TableScroll label="Alerts">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Scope</th>
                <th scope="col">Who</th>
                <th scope="col">Threshold</th>
                <th scope="col">Used</th>
                <th scope="col">Budget</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.id}>
                  <td>{dateTime(a.createdAt)}</td>
                  <td>{a.scope}</td>
                  <td>{a.scopeName}</td>
                  <td>{a.threshold}%</td>
                  <td>{number(a.used)}</td>
                  <td>{number(a.limit)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </Page>
  );
}
