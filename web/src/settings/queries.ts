import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../api.js';

/**
 * The settings pages' reads, one factory each, so a page and the pages that change what it shows
 * name the same cache entry. `key.…` are the prefixes a change invalidates.
 */
export const key = {
  members: ['members'],
  invitations: ['invitations'],
  /** Every list of API keys (the caller's, a service account's). */
  apiKeys: ['api-keys'],
  serviceAccounts: ['service-accounts'],
  /** The global limit, the overrides and the enforcement policy. */
  limits: ['limits'],
  limitsAudit: ['limits-audit'],
  sessions: ['sessions'],
} as const;

export const membersQuery = queryOptions({ queryKey: key.members, queryFn: () => call(api.GET('/api/v0/organization/members')) });

export const invitationsQuery = queryOptions({ queryKey: key.invitations, queryFn: () => call(api.GET('/api/v0/organization/invitations')) });

/** The caller's keys (owners and managers: the organization's), or those of one service account. */
export const apiKeysQuery = (principalId?: string) =>
  queryOptions({
    queryKey: [...key.apiKeys, principalId ?? 'mine'],
    queryFn: () => call(api.GET('/api/v0/api-keys', principalId ? { params: { query: { principalId } } } : {})),
  });

export const serviceAccountsQuery = queryOptions({
  queryKey: key.serviceAccounts,
  queryFn: () => call(api.GET('/api/v0/organization/service-accounts')),
});

export const userLimitsQuery = queryOptions({
  queryKey: [...key.limits, 'users'],
  queryFn: () => call(api.GET('/api/v0/organization/usage/limits/users')),
});

export const globalLimitQuery = queryOptions({
  queryKey: [...key.limits, 'global'],
  queryFn: () => call(api.GET('/api/v0/organization/usage/limits/global')),
});

export const enforcementQuery = queryOptions({
  queryKey: [...key.limits, 'enforcement'],
  queryFn: () => call(api.GET('/api/v0/organization/usage/enforcement')),
});

/** A page of the limit audit log: the `limit` changes before the id `before` (undefined: the newest). */
export const limitsAuditQuery = (limit: number, before: number | undefined) =>
  queryOptions({
    queryKey: [...key.limitsAudit, before ?? 'newest'],
    queryFn: () => call(api.GET('/api/v0/organization/usage/limits/audit', { params: { query: { limit, ...(before === undefined ? {} : { before }) } } })),
  });

export const sessionsQuery = queryOptions({ queryKey: key.sessions, queryFn: () => call(api.GET('/api/v0/sessions')) });
