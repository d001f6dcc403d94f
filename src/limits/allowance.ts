import type { Forecast } from './forecast.js';

/** One budget that applies to a person this month (contract: the tightest one binds). */
export interface Budget {
  scope: 'user' | 'global' | 'team';
  teamId?: string;
  teamName?: string;
  limit: number;
  used: number;
  remaining: number;
  forecast: Forecast;
}

export const budget = (scope: Budget['scope'], limit: number, used: number, forecast: Forecast, team?: { id: string; name: string }): Budget => ({
  scope,
  ...(team ? { teamId: team.id, teamName: team.name } : {}),
  limit,
  used,
  remaining: Math.max(0, limit - used),
  forecast,
});

/**
 * The budget that binds: the one with the least remaining. On a tie the person's own limit (user
 * or global, listed first) binds before a team's, and teams in the order given (by name), so the
 * answer does not change between two readings of the same figures.
 */
export function bindingBudget(budgets: readonly Budget[]): Budget | undefined {
  return budgets.reduce<Budget | undefined>((best, b) => (best === undefined || b.remaining < best.remaining ? b : best), undefined);
}
