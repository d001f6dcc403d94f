import { useMutation } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../api.js';
import { ErrorNote, Field } from '../ui/parts.js';
import { SignInCard } from './card.js';
import { NewPassword } from './password-fields.js';
import { useSignedIn } from './signed-in.js';

export function InvitePage() {
  const { token } = useParams({ from: '/invite/$token' });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const signedIn = useSignedIn();
  const accept = useMutation({
    mutationFn: () => call(api.POST('/api/v0/invitations/accept', { body: { token, password, ...(name.trim() ? { name: name.trim() } : {}) } })),
    onSuccess: signedIn,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== confirm);
    if (password === confirm) accept.mutate();
  };
  return (
    <SignInCard title="Join your organization">
      <p>You were invited to orgctl. Choose your password to accept; this link works once.</p>
      <form onSubmit={submit}>
        <Field label="Your name (optional)">
          <input type="text" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <NewPassword value={password} confirm={confirm} onChange={setPassword} onConfirm={setConfirm} label="Password" />
        {mismatch ? (
          <p className="error" role="alert">
            The two passwords differ.
          </p>
        ) : null}
        <ErrorNote error={accept.error} />
        <button type="submit" disabled={accept.isPending}>
          Accept invitation
        </button>
      </form>
    </SignInCard>
  );
}
