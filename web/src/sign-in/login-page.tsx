import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../api.js';
import { ErrorNote, Field } from '../ui/parts.js';
import { SignInCard } from './card.js';
import { SsoSignIn } from './sso-sign-in.js';
import { useSignedIn } from './signed-in.js';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signedIn = useSignedIn();
  const login = useMutation({ mutationFn: () => call(api.POST('/api/v0/session/login', { body: { email, password } })), onSuccess: signedIn });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <SignInCard title="Sign in">
      <form onSubmit={submit}>
        <Field label="Email">
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Password">
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorNote error={login.error} />
        <button type="submit" disabled={login.isPending}>
          Sign in
        </button>
      </form>
      <SsoSignIn email={email} />
      <p className="muted">First start? Open the setup link `orgctl serve` printed. New here? Ask an owner or manager for an invitation.</p>
    </SignInCard>
  );
}
