/**
 * The Slack incoming-webhook body of an event (`{"text": …}`), for endpoints whose format is
 * `slack`; only usage.threshold_crossed has one, so such endpoints take only that type.
 */
export function slackBody(type: string, body: string): string {
  const { data } = JSON.parse(body) as { data: Record<string, unknown> };
  if (type !== 'usage.threshold_crossed') return JSON.stringify({ text: `orgctl: ${type}` });
  const scope = data.scope === 'organization' ? 'The organization' : data.scope === 'team' ? `Team ${String(data.scopeName)}` : String(data.scopeName);
  const n = (x: unknown) => Number(x).toLocaleString('en-US');
  const text = `:warning: ${scope} has used ${String(data.threshold)}% of its monthly budget: ${n(data.used)} of ${n(data.limit)} credits (period from ${String(data.periodStart)}).`;
  return JSON.stringify({ text });
}
