import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../api.js';
import { ErrorNote } from '../ui/parts.js';
import { SignInCard } from './card.js';
import { NewPassword } from './password-fields.js';
import { useSignedIn } from './signed-in.js';

/** The token travels in the fragment (#token=…), which browsers never send to a server or in a Referer. */
const tokenOfLocation = (): string => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

export function SetupPage() {
  const [token] = useState(tokenOfLocation);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const signedIn = useSignedIn();
  const setup = useMutation({ mutationFn: () => call(api.POST('/api/v0/session/setup', { body: { token, password } })), onSuccess: signedIn });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== confirm);
    if (password === confirm) setup.mutate();
  };
  if (!token) {
    return (
      <SignInCard title="Set up orgctl">
        <p>This page needs the one-time setup link that `orgctl serve` prints at start while no owner has a password.</p>
      </SignInCard>
    );
  }
  return (
    <SignInCard title="Set up orgctl">
      <p>Choose the password of the organization's owner. This link works once.</p>
      <form onSubmit={submit}>
        <NewPassword value={password} confirm={confirm} onChange={setPassword} onConfirm={setConfirm} label="Owner password" />
        {mismatch ? (
          <p className="error" role="alert">
            The two passwords differ.
          </p>
        ) : null}
        <ErrorNote error={setup.error} />
        <button type="submit" disabled={setup.isPending}>
          Set password and sign in
        </button>
      </form>
    </SignInCard>
  );
}
