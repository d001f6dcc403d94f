import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../api.js';

/** Every read of teams starts with this key, so a change to any team invalidates them all. */
export const teamsKey = ['teams'] as const;

export const teamsQuery = queryOptions({ queryKey: teamsKey, queryFn: () => call(api.GET('/api/v0/organization/teams')) });
