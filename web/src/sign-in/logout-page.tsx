import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { api, ApiFailure, call, rememberSession, sessionQuery } from '../api.js';
import { ErrorNote } from '../ui/parts.js';
import { SignInCard } from './card.js';

const signedOutAlready = (error: unknown) => error instanceof ApiFailure && error.status === 401;

/**
 * Ends the session of this browser. Opened from a bookmark or a typed address, the page has not
 * read the session yet, so it reads it first: the sign-out is a write, which needs the session's
 * CSRF token. No session (401, at either step) is the outcome wanted, not an error.
 */
function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await queryClient.ensureQueryData(sessionQuery);
        await call(api.POST('/api/v0/session/logout'));
      } catch (error) {
        if (!signedOutAlready(error)) throw error;
      }
    },
    onSuccess: () => {
      rememberSession({ csrfToken: null });
      queryClient.removeQueries();
    },
  });
}

export function LogoutPage() {
  const signOut = useSignOut();
  const { mutate } = signOut;
  useEffect(() => mutate(), [mutate]);
  if (signOut.isError)
    return (
      <SignInCard title="Not signed out">
        <ErrorNote error={signOut.error} />
        <p>This browser is still signed in.</p>
        <p>
          <button type="button" onClick={() => signOut.mutate()}>
            Try again
          </button>{' '}
          <Link to="/">Back to the overview</Link>
        </p>
      </SignInCard>
    );
  return <SignInCard title={signOut.isSuccess ? 'Signed out' : 'Signing out…'}>{signOut.isSuccess ? <Link to="/login">Sign in again</Link> : null}</SignInCard>;
}
