import type { Allowance } from './allowance.js';

/** Credits in a line a person reads: 950, 12.3k, 52.1M, 1.2B (at most one decimal, none when it is 0). */
function compactCredits(n: number): string {
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, unit] of units) {
    if (Math.abs(n) >= size) return `${trim((n / size).toFixed(1))}${unit}`;
  }
  return String(Math.round(n));
}

const trim = (s: string) => s.replace(/\.0$/, '');

/** The day the allowance resets: periodEnd (the next period's start), as YYYY-MM-DD. */
const resetDay = (a: Allowance) => a.periodEnd.slice(0, 10);

/** `Dec 1`, for the status line. */
function shortDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(0, 10);
  return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]} ${d.getUTCDate()}`;
}

const usedOf = (a: Allowance) => `${compactCredits(a.used)} of ${compactCredits(a.limit ?? 0)} credits`;

/** `individual limit`, `global limit`, `team "backend" limit`. */
const sourceOf = (a: Allowance) => (a.source === 'team' && a.teamName ? `team ${JSON.stringify(a.teamName)} limit` : `${a.source} limit`);

export function blockedMessage(a: Allowance): string {
  return `orgctl: usage limit reached: ${usedOf(a)} used (${sourceOf(a)}); resets ${resetDay(a)}. Ask an owner or manager of your organization to raise it.`;
}

export function spentWarning(a: Allowance): string {
  return `orgctl: usage limit reached: ${usedOf(a)} used (${sourceOf(a)}); resets ${resetDay(a)}. Not blocked: your organization's policy only warns.`;
}

export function thresholdWarning(a: Allowance, threshold: number): string {
  return `orgctl: ${threshold}% of your usage limit used: ${usedOf(a)} (${sourceOf(a)}); resets ${resetDay(a)}.`;
}

export function unreachableOpen(url: string, reason: string): string {
  return `orgctl: cannot reach ${url} (${reason}); usage limits are not checked until it answers again.`;
}

export function unreachableClosed(url: string, reason: string): string {
  return `orgctl: cannot reach ${url} (${reason}); your organization's policy blocks agents while usage limits cannot be checked. Try again when it answers.`;
}

export function refusedClosed(status: number): string {
  return `orgctl: the API key was refused (HTTP ${status}); your organization's policy blocks agents while usage limits cannot be checked. Run \`orgctl login\` again, or ask an administrator for a new key.`;
}

export function refusedMessage(status: number, detail: string): string {
  const why =
    status === 401 || status === 403
      ? `the API key was refused (HTTP ${status}); run \`orgctl login\` again or ask for a new key`
      : `the allowance could not be read (HTTP ${status}${detail ? `: ${detail}` : ''})`;
  return `orgctl: ${why}. Usage limits are not checked.`;
}

export const NOT_CONFIGURED = 'orgctl: no service configured (run `orgctl login`, or set ORGCTL_URL and ORGCTL_API_KEY); usage limits are not checked.';

/** One short line for Claude Code's status line. */
export function statusLine(a: Allowance): string {
  if (a.limit === null) return `orgctl ${compactCredits(a.used)} credits · no limit`;
  const spent = a.used >= a.limit ? ' · limit reached' : '';
  return `orgctl ${compactCredits(a.used)}/${compactCredits(a.limit)} credits${spent} · resets ${shortDay(a.periodEnd)}`;
}
