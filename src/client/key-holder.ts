/** Who holds an API key, as people read it: a user's email, a service account's name (never a bare id). */
export const keyHolder = (k: { principalKind: 'user' | 'service_account'; principalEmail: string | null; principalName: string }): string =>
  k.principalKind === 'service_account' ? `${k.principalName} (service account)` : (k.principalEmail ?? k.principalName);
