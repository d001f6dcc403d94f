import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, sessionQuery, useMe } from '../api.js';
import { NewPassword } from '../sign-in/password-fields.js';
import { When } from '../ui/dates.js';
import { ErrorNote, Field, Page, QueryState } from '../ui/parts.js';
import { key, sessionsQuery } from './queries.js';

function PasswordForm() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => call(api.PUT('/api/v0/me/password', { body: { currentPassword: current, newPassword: next } })),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirm('');
      // The session was renewed: its CSRF token changed with it.
      void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: key.sessions });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(next !== confirm);
    if (next === confirm) change.mutate();
  };
  return (
    <div className="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form onSubmit={submit}>
        <Field label="Current password">
          <input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </Field>
        <NewPassword value={next} confirm={confirm} onChange={setNext} onConfirm={setConfirm} />
        {mismatch ? (
          <p className="error" role="alert">
            The two passwords differ.
          </p>
        ) : null}
        <ErrorNote error={change.error} />
        {change.isSuccess ? <p role="status">Password changed; your other sessions have ended.</p> : null}
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
      </form>
    </div>
  );
}

function Sessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery);
  const revoke = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/api/v0/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key.sessions }),
  });
  if (!sessions.data) return <QueryState query={sessions} />;
  return (
    <table>
      <caption>Signed-in sessions</caption>
      <thead>
        <tr>
          <th scope="col">Browser</th>
          <th scope="col">Signed in</th>
          <th scope="col">Last seen</th>
          <th scope="col">Ends</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {sessions.data.sessions.map((s) => (
          <tr key={s.id}>
            <td>
              {s.userAgent ?? 'unknown'}
              {s.current ? <strong> (this one)</strong> : null}
            </td>
            <td>
              <When ms={s.createdAt} />
            </td>
            <td>
              <When ms={s.lastSeenAt} />
            </td>
            <td>
              <When ms={s.expiresAt} />
            </td>
            <td>
              {s.current ? null : (
                <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(s.id)}>
                  Sign out this session
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ProfilePage() {
  const me = useMe();
  return (
    <Page title="Profile and sessions">
      <div className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl className="stats">
          <div>
            <dt>Name</dt>
            <dd>{me.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{me.email}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>{me.role}</dd>
          </div>
          <div>
            <dt>Organization</dt>
            <dd>{me.organization.name}</dd>
          </div>
        </dl>
      </div>
      <PasswordForm />
      <h2>Sessions</h2>
      <Sessions />
    </Page>
  );
}
