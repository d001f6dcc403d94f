import { utcDay } from '../../../src/core/days.js';

/**
 * Days and instants, written one way on every page: ISO days (`2026-11-27`, the analytics and the
 * API's days) and 24-hour UTC times (`2026-11-27 03:34 UTC`), whatever the browser's locale. In a
 * narrow column a browser would break a day at its hyphens: a day is kept on one line.
 */

/** An instant (epoch milliseconds) as text: its UTC day and time to the minute; '—' when there is none. */
export const dateTime = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? '—' : `${utcDay(ms)} ${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** A day, on one line. */
export function Day({ day }: { day: string }) {
  return (
    <time dateTime={day} className="day">
      {day}
    </time>
  );
}

/** An instant: its day on one line, then the time (UTC); '—' when there is none. */
export function When({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return <>—</>;
  const iso = new Date(ms).toISOString();
  return (
    <time dateTime={iso}>
      <span className="day">{utcDay(ms)}</span> {iso.slice(11, 16)} UTC
    </time>
  );
}

/** The days of a period of ISO instants [start, end) such as an allowance's month: its first day to its last. */
export function PeriodDays({ start, end }: { start: string; end: string }) {
  return (
    <>
      <Day day={start.slice(0, 10)} /> to <Day day={utcDay(Date.parse(end) - 1)} />
    </>
  );
}
