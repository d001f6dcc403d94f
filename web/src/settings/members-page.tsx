import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, isManager, useMe, type Body } from '../api.js';
import { When } from '../ui/dates.js';
import { CopyButton, ErrorNote, Field, Page, QueryState, TableScroll } from '../ui/parts.js';
import { invitationsQuery, key, membersQuery } from './queries.js';
import { ScimCard } from './scim-card.js';

const ROLES = ['owner', 'manager', 'member', 'guest'] as const;
type Role = (typeof ROLES)[number];
const rank: Record<Role, number> = { owner: 3, manager: 2, member: 1, guest: 0 };
/** The members table's columns: user, role, can sign in, added, actions. */
const COLUMNS = 5;

function InviteForm({ myRole }: { myRole: Role }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const invite = useMutation({
    mutationFn: () => call(api.POST('/api/v0/organization/invitations', { body: { email, role } })),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: key.invitations });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  return (
    <div className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form className="inline" onSubmit={submit}>
        {/* A refusal is of the entry it was for: a new entry clears it. */}
        <Field label="Email">
          <input
            type="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              invite.reset();
            }}
          />
        </Field>
        <Field label="Role">
          <select
            value={role}
            onChange={(e) => {
              setRole(e.target.value as Role);
              invite.reset();
            }}
          >
            {ROLES.filter((r) => rank[r] <= rank[myRole]).map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={invite.isPending}>
          Create invitation link
        </button>
      </form>
      <ErrorNote error={invite.error} />
      {invite.data ? (
        <div className="secret" role="status">
          <p>
            Send this one-time link to {invite.data.email}; it works once, until <When ms={invite.data.expiresAt} />:
          </p>
          <code data-testid="invitation-url">{invite.data.url}</code> <CopyButton text={invite.data.url} label="Copy link" />
        </div>
      ) : null}
    </div>
  );
}

function MemberRow({ m, myRole, myId }: { m: Body<'/api/v0/organization/members', 'get'>['members'][number]; myRole: Role; myId: string }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: key.members });
  const setRole = useMutation({
    mutationFn: (role: Role) => call(api.PATCH('/api/v0/organization/members/{id}', { params: { path: { id: m.id } }, body: { role } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/v0/organization/members/{id}', { params: { path: { id: m.id } } })),
    onSettled: refresh,
  });
  const mayChange = rank[m.role] <= rank[myRole];
  const error = setRole.error ?? remove.error;
  return (
    <>
      <tr>
        <td>
          {m.name !== m.email ? `${m.name} ` : ''}
          <span className="muted">{m.email}</span>
          {m.id === myId ? ' (you)' : ''}
        </td>
        <td>
          <select
            aria-label={`Role of ${m.email}`}
            value={m.role}
            disabled={!mayChange || setRole.isPending}
            onChange={(e) => setRole.mutate(e.target.value as Role)}
          >
            {ROLES.filter((r) => rank[r] <= rank[myRole] || r === m.role).map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </td>
        <td>{m.hasPassword ? 'yes' : 'not yet'}</td>
        <td>
          <When ms={m.createdAt} />
        </td>
        <td>
          <button
            type="button"
            className="danger"
            disabled={!mayChange || remove.isPending}
            onClick={() => {
              if (window.confirm(`Remove ${m.email}? Their keys and sessions end at once.`)) remove.mutate();
            }}
          >
            Remove <span className="visually-hidden">{m.email}</span>
          </button>
        </td>
      </tr>
      {/* Under the row, across the table: in a cell, the message would squeeze the columns. */}
      {error ? (
        <tr>
          <td colSpan={COLUMNS} className="row-note">
            <ErrorNote error={error} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** A pending invitation; revoking it makes its link answer 404 (never one for a role above the viewer's). */
function InvitationRow({ invitation: i, myRole }: { invitation: Body<'/api/v0/organization/invitations', 'get'>['invitations'][number]; myRole: Role }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => call(api.DELETE('/api/v0/organization/invitations/{id}', { params: { path: { id: i.id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key.invitations }),
  });
  return (
    <>
      <tr>
        <td>{i.email}</td>
        <td>{i.role}</td>
        <td>
          <When ms={i.expiresAt} />
        </td>
        <td>
          <button
            type="button"
            className="danger"
            disabled={rank[i.role] > rank[myRole] || revoke.isPending}
            onClick={() => {
              if (window.confirm(`Revoke the invitation of ${i.email}? Its link stops working.`)) revoke.mutate();
            }}
          >
            Revoke <span className="visually-hidden">the invitation of {i.email}</span>
          </button>
        </td>
      </tr>
      {revoke.error ? (
        <tr>
          <td colSpan={4} className="row-note">
            <ErrorNote error={revoke.error} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

export function MembersPage() {
  const me = useMe();
  const manager = isManager(me.role);
  const members = useQuery({ ...membersQuery, enabled: manager });
  const invitations = useQuery({ ...invitationsQuery, enabled: manager });
  if (!manager) {
    return (
      <Page title="Members">
        <p>Only owners and managers manage members.</p>
      </Page>
    );
  }
  const myRole = me.role;
  return (
    <Page title="Members">
      <InviteForm myRole={myRole} />
      <QueryState query={members} />
      {members.data ? (
        <TableScroll label="Members">
          <table>
            <caption>Users of {me.organization.name}; a removal or role change ends their sessions at once</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Can sign in</th>
                <th scope="col">Added</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {members.data.members.map((m) => (
                <MemberRow key={m.id} m={m} myRole={myRole} myId={me.principalId} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {invitations.data && invitations.data.invitations.length > 0 ? (
        <TableScroll label="Invitations">
          <table>
            <caption>Invitations not yet accepted</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Valid until</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {invitations.data.invitations.map((i) => (
                <InvitationRow key={i.id} invitation={i} myRole={myRole} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {myRole === 'owner' ? <ScimCard /> : null}
    </Page>
  );
}
