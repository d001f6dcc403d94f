import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMe } from '../api.js';
import { When } from '../ui/dates.js';
import { Page, QueryState, TableScroll } from '../ui/parts.js';
import { CreateComputerForm } from './create-computer-form.js';
import { isLive } from './live-computer.js';
import { computersQuery } from './queries.js';
import { StatusBadge } from './status-badge.js';

export function ComputersPage() {
  const me = useMe();
  // While a computer provisions, the list looks again every few seconds; a settled list does not.
  const computers = useQuery({ ...computersQuery, refetchInterval: (q) => (q.state.data?.computers.some(isLive) ? 5000 : false) });
  if (me.role === 'guest')
    return (
      <Page title="Computers">
        <p>Guests cannot use computers: ask an owner or a manager of the organization.</p>
      </Page>
    );
  return (
    <Page title="Computers">
      <CreateComputerForm />
      <QueryState query={computers} empty={computers.data?.computers.length === 0 ? 'No computers yet.' : undefined} />
      {computers.data && computers.data.computers.length > 0 ? (
        <TableScroll label="Computers">
          <table>
            <caption>{me.role === 'member' ? 'Your computers' : "The organization's computers"}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Provider</th>
                <th scope="col">Host</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {computers.data.computers.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link to="/computers/$computerId" params={{ computerId: c.id }}>
                      {c.name}
                    </Link>
                  </th>
                  <td>
                    <StatusBadge status={c.status} />
                  </td>
                  <td>{c.providerType}</td>
                  <td>{c.hostname ?? <span className="muted">{c.providerType === 'byom' ? 'no agent yet' : '—'}</span>}</td>
                  <td>
                    <When ms={c.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </Page>
  );
}
