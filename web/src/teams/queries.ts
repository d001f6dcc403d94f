import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../api.js';

/** Every read of teams starts with this key, so a change to any team invalidates them all. */
export const teamsKey = ['teams'] as const;

export const teamsQuery = queryOptions({ queryKey: teamsKey, queryFn: () => call(api.GET('/api/v0/organization/teams')) });

/** A change to teams: every team list is read again once it is done, then `done` (a form clearing itself, say). */
export function useTeamChange<A>(change: (arg: A) => Promise<unknown>, done?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: teamsKey });
      done?.();
    },
  });
}
