/**
 * The repositories report's rows as the CLI's table and CSV and the web app's table and CSV show
 * them: the level of the range's last day stands for the list of days (`readiness`), so both
 * write the same bytes for the same answer.
 */
export function lastLevelRows<R extends { readiness: { level: number | null }[] }>(rows: readonly R[]): (Omit<R, 'readiness'> & { level: number | null })[] {
  return rows.map(({ readiness, ...r }) => ({ ...r, level: readiness[readiness.length - 1]?.level ?? null }));
}
