import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, ApiFailure, call, rememberSession } from '../api.js';
import { ErrorNote } from '../ui/parts.js';
import { SignInCard } from './card.js';

export function LogoutPage() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ done: boolean; error?: unknown }>({ done: false });
  useEffect(() => {
    call(api.POST('/api/v0/session/logout'))
      // Already signed out (the session ended elsewhere) is the outcome wanted, not an error.
      .catch((error: unknown) => {
        if (!(error instanceof ApiFailure && error.status === 401)) setState({ done: true, error });
      })
      .finally(() => {
        rememberSession({ csrfToken: null });
        queryClient.clear();
        setState((s) => ({ ...s, done: true }));
      });
  }, [queryClient]);
  return (
    <SignInCard title={state.done ? 'Signed out' : 'Signing out…'}>
      <ErrorNote error={state.error} />
      {state.done ? <Link to="/login">Sign in again</Link> : null}
    </SignInCard>
  );
}
