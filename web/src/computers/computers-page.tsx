import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call, useSession } from '../api.js';
import { dateTime } from '../ui/format.js';
import { ErrorNote, Loading, Page } from '../ui/parts.js';
import { CreateComputerForm } from './create-computer-form.js';
import { isLive } from './live-computer.js';
import { StatusBadge } from './status-badge.js';

export function ComputersPage() {
  const session = useSession();
  // While a computer provisions, the list looks again every few seconds; a settled list does not.
  const computers = useQuery({
    queryKey: ['computers'],
    queryFn: () => call(api.GET('/api/v0/computers')),
    refetchInterval: (q) => (q.state.data?.computers.some(isLive) ? 5000 : false),
  });
  if (session.data?.role === 'guest')
    return (
      <Page title="Computers">
        <p>Guests cannot use computers: ask an owner or a manager of the organization.</p>
      </Page>
    );
  return (
    <Page title="Computers">
      <CreateComputerForm />
      {computers.isPending ? <Loading /> : <ErrorNote error={computers.error} />}
      {computers.data ? (
        computers.data.computers.length === 0 ? (
          <p className="muted">No computers yet.</p>
        ) : (
          <table>
            <caption>{session.data?.role === 'member' ? 'Your computers' : "The organization's computers"}</caption>
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
                  <td>{dateTime(c.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </Page>
  );
}
