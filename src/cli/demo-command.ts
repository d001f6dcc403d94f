import type { Config } from '../config.js';
import { LOCAL } from './local-specs.js';
import { parseCommand } from './model.js';
import { output, UsageError } from '../core/cli/args.js';
import { addDays, utcDay } from '../core/days.js';
import { withServices, type Services } from '../services.js';
import { demoEvents } from '../analytics/demo-data.js';

const intFlag = (value: string | undefined, flag: string, min: number, max: number, fallback?: number): number => {
  if (value === undefined && fallback !== undefined) return fallback;
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max}.`);
  return n;
};

export const demoEmail = (i: number): string => `demo-user-${String(i + 1).padStart(3, '0')}@demo.orgctl.test`;

export interface DemoSeedResult {
  orgId: string;
  users: number;
  firstDay: string;
  lastDay: string;
  events: number;
  accepted: number;
  duplicates: number;
}

/**
 * Adds `users` demo users (members, reused when they exist) and `days` days of their telemetry,
 * ending yesterday (UTC), through the ingestion service in batches of 1000: the same
 * validation, transaction and rollups as POST /api/v1/telemetry/events.
 */
export async function seedDemo(
  { operatorIdentity, telemetry }: Pick<Services, 'operatorIdentity' | 'telemetry'>,
  orgId: string,
  o: { users: number; days: number; seed: number },
): Promise<DemoSeedResult> {
  const lastDay = addDays(utcDay(Date.now()), -1);
  const emails = Array.from({ length: o.users }, (_, i) => demoEmail(i));
  const existing = new Map((await operatorIdentity.findUsersByEmail(orgId, emails)).map((u) => [u.email, u.id]));
  const userIds: string[] = [];
  for (const email of emails) userIds.push(existing.get(email) ?? (await operatorIdentity.addUser({ orgId, email, role: 'member' })).id);
  const events = demoEvents({ userIds, days: o.days, lastDay, seed: o.seed });
  let accepted = 0;
  let duplicates = 0;
  for (let i = 0; i < events.length; i += 1000) {
    const r = await telemetry.importEvents(orgId, events.slice(i, i + 1000) as never);
    accepted += r.accepted;
    duplicates += r.duplicates;
  }
  return { orgId, users: o.users, firstDay: addDays(lastDay, 1 - o.days), lastDay, events: events.length, accepted, duplicates };
}

/** orgctl demo seed --users N --days D [--seed S] [--org-id ID] [--json] (see seedDemo). */
export async function demoSeed(argv: string[], config: Config): Promise<number> {
  const { values } = parseCommand(argv, LOCAL.demoSeed);
  const users = intFlag(values.users, 'users', 1, 1000);
  const days = intFlag(values.days, 'days', 1, 366);
  const seed = intFlag(values.seed, 'seed', 0, 2 ** 31 - 1, 1);
  const result = await withServices(config, async (services) =>
    seedDemo(services, await services.operatorIdentity.resolveOrganization(values['org-id']), { users, days, seed }),
  );
  output(values.json, result, [
    `Seeded ${result.users} demo users of organization ${result.orgId} with ${result.events} events from ${result.firstDay} to ${result.lastDay}`,
    `(${result.accepted} stored, ${result.duplicates} already there).`,
    `Try: GET /api/v1/analytics/activity?startDate=${result.firstDay}&endDate=${result.lastDay} with an owner or manager key.`,
  ]);
  return 0;
}
