import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, sessionQuery, useMe } from '../api.js';
import { NewPassword } from '../sign-in/password-fields.js';
import { When } from '../ui/dates.js';
import { ErrorNote, Field, Page, QueryState, TableScroll } from '../ui/parts.js';
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
    <TableScroll label="Sessions">
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
    </TableScroll>
  );
}

/** One's own name and email (PATCH /api/v0/me); the email is the sign-in name, and this session stays signed in. */
function ProfileForm() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [name, setName] = useState(me.name);
  const [email, setEmail] = useState(me.email ?? '');
  const save = useMutation({
    mutationFn: (body: { name?: string; email?: string }) => call(api.PATCH('/api/v0/me', { body })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = { ...(name.trim() !== me.name ? { name: name.trim() } : {}), ...(email.trim().toLowerCase() !== me.email ? { email: email.trim() } : {}) };
    if (Object.keys(body).length > 0) save.mutate(body);
  };
  // A refusal is of the entry it was for: a new entry clears it.
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    save.reset();
  };
  return (
    <form onSubmit={submit}>
      <Field label="Name">
        <input type="text" required maxLength={200} autoComplete="name" value={name} onChange={(e) => edit(setName)(e.target.value)} />
      </Field>
      <Field label="Email (you sign in with it)">
        <input type="email" required maxLength={320} autoComplete="email" value={email} onChange={(e) => edit(setEmail)(e.target.value)} />
      </Field>
      <ErrorNote error={save.error} />
      {save.data ? (
        <p role="status">Saved.{save.variables?.email !== undefined ? ` Sign in with ${save.data.email} from now on; you stay signed in here.` : ''}</p>
      ) : null}
      <button type="submit" disabled={save.isPending}>
        Save profile
      </button>
    </form>
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
            <dt>Role</dt>
            <dd>{me.role}</dd>
          </div>
          <div>
            <dt>Organization</dt>
            <dd>{me.organization.name}</dd>
          </div>
        </dl>
        {me.kind === 'user' ? <ProfileForm /> : <p className="muted">{me.name}: a service account's name is changed by owners and managers.</p>}
      </div>
      <PasswordForm />
      <h2>Sessions</h2>
      <Sessions />
    </Page>
  );
}
