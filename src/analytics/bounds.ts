import type { CounterKind } from './rollups.js';

/**
 * What analytics keeps of each kind of name per organization and day, so that no caller (a guest
 * may send telemetry) can make a report large by sending ever new names: past either bound, a
 * day's new names are counted under OTHER (the counts stay exact, only the names are merged).
 * `names`: distinct names; `bytes`: what they take in a response, as JSON strings without their
 * quotes (a hook's event, matcher and command together). A real organization's day has a few
 * dozen tools, skills or commands of a few dozen characters each (model APIs cap a tool's name
 * at 64), far from either bound; the bounds make a day row of /tools at most about 41 KB
 * (docs/analytics.md).
 */
export const NAMES_PER_DAY: Record<CounterKind, { names: number; bytes: number }> = {
  tool: { names: 200, bytes: 8000 },
  mcp_server: { names: 50, bytes: 2000 },
  skill: { names: 100, bytes: 4000 },
  slash_command: { names: 100, bytes: 4000 },
  hook: { names: 50, bytes: 6000 },
  extension: { names: 100, bytes: 1000 },
  language: { names: 50, bytes: 1000 },
};

/**
 * Distinct models (with their tiers) kept on one user's day, and the bytes of their names (as
 * bytes are counted above); /tokens and /users show them. A real user's day has a few models of a
 * few dozen characters; the bounds keep what one person can add to every report row of their day
 * to about 2 KB of model names.
 */
export const MODELS_PER_USER_DAY = 50;
export const MODEL_BYTES_PER_USER_DAY = 2000;

/** Distinct languages kept on one user's day (the `languages` of /users), and the bytes of their names. */
export const LANGUAGES_PER_USER_DAY = 50;
export const LANGUAGE_BYTES_PER_USER_DAY = 1000;

/** What a name takes in a response: a JSON string's bytes, without its quotes. */
const nameBytes = (name: string): number => Buffer.byteLength(JSON.stringify(name)) - 2;

/** A user-day's languages as kept: sorted, the first LANGUAGES_PER_USER_DAY, while their bytes fit. */
export function keptLanguages(languages: Iterable<string>): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const l of [...languages].sort().slice(0, LANGUAGES_PER_USER_DAY)) {
    bytes += nameBytes(l);
    if (bytes > LANGUAGE_BYTES_PER_USER_DAY) break;
    kept.push(l);
  }
  return kept;
}

/** The name under which a day's names past its bound are counted (hooks: the event; matcher and command empty). */
export const OTHER = '(other)';

/** Characters kept of a stored name; a longer one is cut and ends in `…`. */
export const NAME_MAX = 200;

export const boundedName = (name: string): string => (name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 1)}…`);
