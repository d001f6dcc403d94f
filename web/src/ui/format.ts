export const dateTime = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '—' : new Date(ms).toLocaleString());
export const number = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : n.toLocaleString());

/** YYYY-MM-DD of today plus `days`, UTC: analytics days are UTC days. */
export const utcDay = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
