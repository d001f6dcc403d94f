import { daysBetween } from '../../../src/core/days.js';
import { dayFromToday } from '../ui/format.js';

/** The range of an analytics view, as it stands in the URL: a preset (`days`) or a custom `from`/`to`. */
export interface RangeSearch {
  days?: number;
  from?: string;
  to?: string;
  /** The team the view is narrowed to (its id): credits, activity and users by team. */
  team?: string;
}

export const PRESETS = [7, 30, 90, 365] as const;
export const DEFAULT_DAYS = 30;
export const MAX_SPAN = 366;
const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
const isId = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Keeps what the URL says of the range and the team and nothing else: the route's validateSearch. */
export function rangeSearch(s: Record<string, unknown>): RangeSearch {
  const days = Number(s.days);
  const team = isId(s.team) ? { team: s.team.toLowerCase() } : {};
  if (isDate(s.from) && isDate(s.to)) return { from: s.from, to: s.to, ...team };
  return (PRESETS as readonly number[]).includes(days) ? { days, ...team } : team;
}

/** The days the view asks the API for: the last N closed (UTC) days, or the custom range. */
export function resolveRange(s: RangeSearch): { startDate: string; endDate: string; label: string; team_id?: string } {
  const team = s.team ? { team_id: s.team } : {};
  if (s.from && s.to) return { startDate: s.from, endDate: s.to, label: `${s.from} to ${s.to}`, ...team };
  const days = s.days ?? DEFAULT_DAYS;
  return { startDate: dayFromToday(-days), endDate: dayFromToday(-1), label: `last ${days} days`, ...team };
}

/** Why a custom range cannot be asked for, in the API's terms; undefined when it can. */
export function customRangeProblem(from: string, to: string): string | undefined {
  if (!isDate(from) || !isDate(to)) return 'Both days are needed.';
  if (from > to) return 'The first day is after the last.';
  if (to >= dayFromToday(0)) return 'Data is available through yesterday (UTC).';
  if (daysBetween(from, to) + 1 > MAX_SPAN) return `A range spans at most ${MAX_SPAN} days.`;
  return undefined;
}

/** The range (and team) of the current view alone, for links to another analytics page. */
export const keepRange = (prev: RangeSearch): RangeSearch => ({ days: prev.days, from: prev.from, to: prev.to, team: prev.team });
