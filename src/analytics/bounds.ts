import type { CounterKind } from './rollups.js';

/**
 * What analytics keeps per organization and day, so that no caller can make an answer
 * arbitrarily large by sending ever new names: past these, a day's new names are counted under
 * OTHER (the counts stay exact, only the names are merged). Documented in docs/analytics.md.
 */
export const DISTINCT_PER_DAY: Record<CounterKind, number> = {
  tool: 1000,
  mcp_server: 250,
  skill: 250,
  slash_command: 250,
  hook: 250,
  extension: 250,
  language: 250,
};

/** Distinct models (with their tiers) kept on one user's day; /tokens and /users show them. */
export const MODELS_PER_USER_DAY = 50;

/** Distinct languages kept on one user's day (the `languages` of /users). */
export const LANGUAGES_PER_USER_DAY = 50;

/** The name under which a day's names past its bound are counted (hooks: the event; matcher and command empty). */
export const OTHER = '(other)';

/** Characters kept of a stored name; a longer one is cut and ends in `…`. */
export const NAME_MAX = 200;

export const boundedName = (name: string): string => (name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`);
