import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { addDays, utcDay } from '../core/days.js';
import { errors } from '../core/http/errors.js';
import { compileJson, SerializedJson } from '../core/http/serialized-json.js';
import type { TelemetryEvent } from '../events/event.js';
import type { CreditsUsage } from '../limits/service.js';
import { activeUserWindows } from './active-windows.js';
import { roundCredits } from './credits.js';
import { DayBudget, type DayCache } from './day-cache.js';
import { reportRange } from './dates.js';
import { activityByClient, activityRows, productivityRows, tokensByModel, tokensRows, toolsByName, toolsRows } from './day-reports.js';
import {
  Meta,
  ProductivityRow,
  TokensModelRow,
  TokensRow,
  TokensTeamRow,
  ToolsNameRow,
  ToolsRow,
  UsersMeta,
  type ActivityQuery,
  type ProductivityQuery,
  type TokensQuery,
  type ToolsQuery,
  type TodayUsageResponse,
  type UserTotalsQuery,
  type UsersQuery,
} from './schemas.js';
import { writeRollups } from './rollup-store.js';
import { repoDeltas } from './repo-rollups.js';
import { writeRepoRollups } from './repo-store.js';
import { activityByRepository, RepositoryAnalytics, tokensByRepository } from './repositories.js';
import { activityByTeam, tokensByTeam } from './team-reports.js';
import { memberOn, teamAnalyticsStore as teamStore, teamNameOn } from './team-store.js';
import { rollupDeltas, type Increment } from './rollups.js';
import { analyticsStore as store, type Range } from './store.js';
import { userDay, userDayBytes, userRows, type UserDay } from './user-report.js';

/**
 * Days of a report read, built and serialized at a time: a year of /tools at its bounds is 14 MB
 * (docs/analytics.md), which read, parsed and serialized in one go held the event loop for
 * seconds; a month at a time holds it for a few milliseconds between reads.
 */
const DAYS_PER_READ = 31;
/** The range from the first to the last of these days (ascending). */
const spanOf = (orgId: string, days: string[]): Range => ({ orgId, from: days[0]!, to: days[days.length - 1]! });
const TOOLS_KINDS = ['tool', 'mcp_server', 'skill', 'slash_command', 'hook'];

/** The /users rows of one day kept so far, by user id; null for a user without a row that day. */
type UserDaySlice = Map<string, UserDay | null>;

// The kept rows and their envelopes' meta, serialized by their schemas.
const tokensRowJson = compileJson(TokensRow);
const tokensModelRowJson = compileJson(TokensModelRow);
const tokensTeamRowJson = compileJson(TokensTeamRow);
const toolsRowJson = compileJson(ToolsRow);
const toolsNameRowJson = compileJson(ToolsNameRow);
const productivityRowJson = compileJson(ProductivityRow);
const metaJson = compileJson(Meta);
const usersMetaJson = compileJson(UsersMeta);

export interface AnalyticsDeps {
  db: Db;
  /** The memory budget of the days kept between requests (ANALYTICS_CACHE_MB); none by default. */
  cacheBytes?: number;
  /** What "today" is; by default the system's. */
  clock?: Clock;
  /** Told, in the transaction that records them, whose credits a batch added to (usage alerts). */
  usageListener?: UsageListener;
}

/** Hears of recorded credits inside the recording transaction (AlertsService). */
export interface UsageListener {
  usageRecorded(orgId: string, userIds: readonly string[]): Promise<void>;
}

/**
 * Analytics: the one way events reach the rollups (recordBatch), and the reads, each of the
 * rollups of the days asked for.
 */
export class AnalyticsService implements CreditsUsage {
  /**
   * What is kept between requests, one cache per kind of value, in one memory budget: the /tokens
   * row of a day, its /tokens?group_by=model rows, its /tools row and group_by=tool_name rows, its
   * /productivity row (each serialized), and its /users rows by user.
   */
  private readonly tokensDays: DayCache<Buffer[]>;
  private readonly modelDays: DayCache<Buffer[]>;
  private readonly teamDays: DayCache<Buffer[]>;
  private readonly toolsDays: DayCache<Buffer[]>;
  private readonly toolNameDays: DayCache<Buffer[]>;
  private readonly productivityDays: DayCache<Buffer[]>;
  private readonly userDays: DayCache<UserDaySlice>;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly usageListener: UsageListener | undefined;
  /** Analytics by repository: attribution and its reports. */
  readonly repositories: RepositoryAnalytics;

  constructor({ db, cacheBytes = 0, clock = systemClock, usageListener }: AnalyticsDeps) {
    this.db = db;
    this.clock = clock;
    this.usageListener = usageListener;
    this.repositories = new RepositoryAnalytics({ db, clock });
    const budget = new DayBudget(cacheBytes);
    this.tokensDays = budget.cache('tokens');
    this.modelDays = budget.cache('tokens-by-model');
    this.teamDays = budget.cache('tokens-by-team');
    this.toolsDays = budget.cache('tools');
    this.toolNameDays = budget.cache('tools-by-name');
    this.productivityDays = budget.cache('productivity');
    this.userDays = budget.cache('users');
  }

  /**
   * Adds newly stored events to the rollups in the caller's transaction (the one that stores the
   * events), so that the rollups stay exact sums of the stored events: native ingestion and OTLP
   * ingestion both come here. `increments`: counters given by their parts rather than as events
   * (OTLP's counter and token data points), counted as their events would be. The usage listener
   * (alerts) hears of the people whose credits grew, in the same transaction, after the writes.
   */
  recordBatch(orgId: string, events: readonly TelemetryEvent[], increments?: readonly Increment[]): Promise<void> {
    const deltas = rollupDeltas(events, increments);
    const repos = repoDeltas(events, increments);
    const charged = [...new Set(deltas.userDays.filter((u) => u.creditUnits > 0n).map((u) => u.userId))];
    return this.db.transaction(async () => {
      writeRollups(this.db, orgId, deltas);
      writeRepoRollups(this.db, orgId, repos);
      if (this.usageListener && charged.length > 0) await this.usageListener.usageRecorded(orgId, charged);
    });
  }

  /** Validates the range and returns the envelope's meta and the days that can have rows. */
  private range(orgId: string, q: { startDate: string; endDate: string }) {
    return reportRange(orgId, q, utcDay(this.clock.now().getTime()));
  }

  /**
   * The team of a `team_id` filter: any team of the organization, also a deleted one (its history
   * stays); another organization's or an unknown id is 404.
   */
  private async requireTeam(orgId: string, teamId: string | undefined): Promise<string | undefined> {
    if (teamId === undefined) return undefined;
    const id = teamId.toLowerCase();
    if (!(await teamStore.teamExists(this.db, orgId, id))) throw errors.notFound('Team', 'team_not_found');
    return id;
  }

  async tokens(orgId: string, q: TokensQuery) {
    const { meta, r, days } = this.range(orgId, q);
    const teamId = await this.requireTeam(orgId, q.team_id);
    if (!r) return { data: [], meta };
    // A year of token rows is large (by user and model, every day), and its model rows many (a
    // quarter of a million for 200 daily users): each day's rows are built and serialized once
    // and kept while the day keeps its version. A team's rows are kept under the team too: who
    // was in it on a closed day never changes (membership changes take effect from today on).
    if (q.group_by === 'repository') return { data: tokensByRepository(await this.repositories.groupedDays(orgId, r, q.repository)), meta };
    const t = { ...r, teamId };
    const rows =
      q.group_by === 'model'
        ? await this.keptDayRows(this.modelDays, tokensModelRowJson, t, days, async (missing) =>
            tokensByModel(await store.modelsByDay(this.db, orgId, missing, teamId)),
          )
        : q.group_by === 'team'
          ? await this.keptDayRows(this.teamDays, tokensTeamRowJson, t, days, async (missing) => {
              const [sums, names] = await Promise.all([teamStore.tokensByTeam(this.db, orgId, missing), teamStore.names(this.db, orgId)]);
              return tokensByTeam(
                sums.filter((x) => teamId === undefined || x.team_id === teamId),
                teamNameOn(names),
              );
            })
          : await this.keptDayRows(this.tokensDays, tokensRowJson, t, days, async (missing) =>
              tokensRows(missing, await store.modelRows(this.db, orgId, missing, teamId)),
            );
    return SerializedJson.envelope(rows, metaJson(meta));
  }

  /**
   * The serialized rows of each day of the range, in order: kept ones, and for the days whose
   * kept rows are missing or older than the day's version, the rows `build` makes of those days
   * (by date, in the order of the response; rows of other days are left out), serialized by
   * `json` and then kept. The missing days are built DAYS_PER_READ at a time.
   */
  private async keptDayRows<Row extends { date: string }>(
    kept: DayCache<Buffer[]>,
    json: (row: Row) => Buffer,
    r: Range,
    days: string[],
    build: (missing: string[]) => Promise<Row[]>,
  ) {
    const versions = await store.dayVersions(this.db, r);
    const key = r.teamId === undefined ? (date: string) => `${r.orgId}|${date}` : (date: string) => `${r.orgId}|${date}|${r.teamId}`;
    // A day without a version has had no ingestion since versions began (migration 0012).
    const version = (date: string) => versions.get(date) ?? '0';
    const perDay = days.map((date) => kept.get(key(date), version(date)));
    const missing = days.filter((_, i) => perDay[i] === undefined);
    if (missing.length > 0) {
      const built = new Map(missing.map((date) => [date, [] as Buffer[]]));
      for (let i = 0; i < missing.length; i += DAYS_PER_READ) {
        for (const row of await build(missing.slice(i, i + DAYS_PER_READ))) built.get(row.date)?.push(json(row));
      }
      days.forEach((date, i) => {
        const rows = built.get(date);
        if (rows === undefined) return;
        // A share for the array and the entry around the buffers, so that empty days count too.
        kept.set(
          key(date),
          version(date),
          rows,
          rows.reduce((n, b) => n + b.length, 64),
        );
        perDay[i] = rows;
      });
    }
    return (perDay as Buffer[][]).flat();
  }

  /** /tools: its rows kept per day as /tokens' are, since a day's names can make them large (bounds.ts). */
  async tools(orgId: string, q: ToolsQuery) {
    const { meta, r, days } = this.range(orgId, q);
    if (!r) return { data: [], meta };
    const rows =
      q.group_by === 'tool_name'
        ? await this.keptDayRows(this.toolNameDays, toolsNameRowJson, r, days, async (missing) =>
            toolsByName(await store.counters(this.db, spanOf(orgId, missing), ['tool'])),
          )
        : await this.keptDayRows(this.toolsDays, toolsRowJson, r, days, async (missing) => {
            const span = spanOf(orgId, missing);
            const [totals, counters] = await Promise.all([store.toolsDays(this.db, span), store.counters(this.db, span, TOOLS_KINDS)]);
            return toolsRows(missing, totals, counters);
          });
    return SerializedJson.envelope(rows, metaJson(meta));
  }

  async activity(orgId: string, q: ActivityQuery) {
    const { meta, r: all, days } = this.range(orgId, q);
    const teamId = await this.requireTeam(orgId, q.team_id);
    if (!all) return { data: [], meta };
    const r = { ...all, teamId };
    if (q.group_by === 'repository') return { data: activityByRepository(await this.repositories.groupedDays(orgId, all, q.repository)), meta };
    if (q.group_by === 'client') return { data: activityByClient(await store.activityDays(this.db, r)), meta };
    if (q.group_by === 'team') {
      const [rows, names] = await Promise.all([teamStore.activityByTeam(this.db, r), teamStore.names(this.db, orgId)]);
      const data = activityByTeam(
        rows.filter((x) => teamId === undefined || x.team_id === teamId),
        teamNameOn(names),
      );
      return { data, meta };
    }
    const [totals, activeDays] = await Promise.all([store.activityDays(this.db, r), store.activeDaysByUser(this.db, r)]);
    const { wau, mau } = activeUserWindows(activeDays, days.length);
    return {
      data: activityRows(
        days,
        totals,
        days.map((date, i) => ({ date, wau: wau[i]!, mau: mau[i]! })),
      ),
      meta,
    };
  }

  async productivity(orgId: string, q: ProductivityQuery) {
    const { meta, r, days } = this.range(orgId, q);
    if (!r) return { data: [], meta };
    const rows = await this.keptDayRows(this.productivityDays, productivityRowJson, r, days, async (missing) => {
      const span = spanOf(orgId, missing);
      const [totals, counters] = await Promise.all([store.productivityDays(this.db, span), store.counters(this.db, span, ['extension', 'language'])]);
      return productivityRows(missing, totals, counters);
    });
    return SerializedJson.envelope(rows, metaJson(meta));
  }

  /**
   * A page of users (by id) active in the range, each with one row per active day. A user-day's
   * row is kept while its day keeps its version, as /tokens keeps day rows: a year of a page's
   * rows is 6,000 rows and 3 MB, which cost more to read and serialize than to send.
   */
  async users(orgId: string, q: UsersQuery) {
    const { meta, r: all, days } = this.range(orgId, q);
    const teamId = await this.requireTeam(orgId, q.team_id);
    const page = { ...meta, has_more: false, next_cursor: null as string | null };
    if (!all) return { data: [], meta: page };
    const r = { ...all, teamId };
    // The validator fills in the default; a direct caller may leave it out.
    const limit = q.limit ?? 20;
    // One user's rows (a user's page in the app): that user alone, on one page, active or not.
    const ids = q.user_id !== undefined ? [q.user_id.toLowerCase()] : await store.activeUsersPage(this.db, r, q.cursor?.toLowerCase() ?? null, limit + 1);
    const users = q.user_id !== undefined ? ids : ids.slice(0, limit);
    if (users.length === 0) return { data: [], meta: page };
    page.has_more = q.user_id === undefined && ids.length > limit;
    page.next_cursor = page.has_more ? (users[users.length - 1] as string) : null;
    const [versions, earlier] = await Promise.all([store.dayVersions(this.db, r), store.lastSessionLevels(this.db, orgId, users, r.from)]);
    const slices = await this.userDaySlices(orgId, days, versions, users);
    // With a team, a user's rows of the days they did not belong to it are left out.
    const member = teamId === undefined ? undefined : memberOn(await teamStore.spans(this.db, orgId, teamId));
    const rows = users.flatMap((user) =>
      userRows(
        slices.map((s) => s.get(user)),
        earlier.get(user),
        member && ((i) => member(user, days[i]!)),
      ),
    );
    return SerializedJson.envelope(rows, usersMetaJson(page));
  }

  /**
   * For each day, what the cache keeps of its users, with the rows of `users` it lacked read and
   * kept. A user without a row that day is kept as null.
   */
  private async userDaySlices(orgId: string, days: string[], versions: Map<string, string>, users: string[]) {
    const key = (date: string) => `${orgId}|${date}`;
    const version = (date: string) => versions.get(date) ?? '0';
    const slices = days.map((date): UserDaySlice => this.userDays.get(key(date), version(date)) ?? new Map());
    const lacking = days.filter((_, i) => users.some((u) => !slices[i]!.has(u)));
    if (lacking.length === 0) return slices;
    const found = await store.userDays(this.db, orgId, lacking, users);
    const byDay = new Map(lacking.map((date) => [date, new Map<string, UserDay>()]));
    for (const row of found) byDay.get(row.date)!.set(row.user_id, userDay(row));
    days.forEach((date, i) => {
      const read = byDay.get(date);
      if (!read) return;
      const slice = slices[i]!;
      let bytes = 0;
      for (const user of users) if (!slice.has(user)) slice.set(user, read.get(user) ?? null);
      for (const e of slice.values()) bytes += userDayBytes(e);
      this.userDays.set(key(date), version(date), slice, bytes);
    });
    return slices;
  }

  /**
   * Every user's sums over the range, active or not (the app's users table): one aggregate of the
   * range's user-day rows, where summing /users pages would carry a row per user and active day.
   */
  async userTotals(orgId: string, q: UserTotalsQuery) {
    const { meta } = this.range(orgId, q);
    const teamId = await this.requireTeam(orgId, q.team_id);
    // Days before the first day of data have no rows: the same query answers zeros for them.
    const rows = await store.userTotals(this.db, { orgId, from: q.startDate, to: q.endDate, teamId });
    return { data: rows.map(({ credit_units, ...row }) => ({ ...row, billable_tokens: roundCredits(credit_units) })), meta };
  }

  /** One user's own /users rows over a range: My usage, for any role. */
  async ownDaily(orgId: string, userId: string, q: { startDate: string; endDate: string }) {
    const { meta, r, days } = this.range(orgId, q);
    if (!r) return { data: [], meta };
    const [versions, earlier] = await Promise.all([store.dayVersions(this.db, r), store.lastSessionLevels(this.db, orgId, [userId], r.from)]);
    const slices = await this.userDaySlices(orgId, days, versions, [userId]);
    return SerializedJson.envelope(
      userRows(
        slices.map((s) => s.get(userId)),
        earlier.get(userId),
      ),
      metaJson(meta),
    );
  }

  /**
   * Today so far (UTC), live: the caller's own user-day row and, for owners and managers
   * (`withOrganization`), the organization's, read as they stand. Analytics proper ends yesterday.
   */
  async today(orgId: string, userId: string, withOrganization: boolean): Promise<TodayUsageResponse> {
    const date = utcDay(this.clock.now().getTime());
    const sums = ({ credit_units, tokens, sessions, tool_calls }: Awaited<ReturnType<typeof store.daySums>>) => ({
      billable_tokens: roundCredits(credit_units),
      tokens: Number(tokens),
      sessions: Number(sessions),
      tool_calls: Number(tool_calls),
    });
    const mine = sums(await store.daySums(this.db, orgId, date, userId));
    if (!withOrganization) return { date, mine, organization: null };
    const org = await store.daySums(this.db, orgId, date, null);
    const first = await store.firstActiveDay(this.db, orgId);
    return { date, mine, organization: { ...sums(org), active_users: org.principals, first_active_date: first } };
  }

  /**
   * Credits principals used in [from, to) (whole UTC days), all together, for the allowance of usage
   * limits: one principal's own, or a team's members' against its budget.
   */
  async creditsUsed(orgId: string, principalIds: readonly string[], from: Date, to: Date): Promise<number> {
    if (principalIds.length === 0) return 0;
    const first = utcDay(from.getTime());
    const last = addDays(utcDay(to.getTime()), -1);
    return roundCredits(await store.creditUnits(this.db, orgId, principalIds, first, last));
  }

  /** Credits every principal of the organization used in [from, to) (whole UTC days): its forecast in the allowance. */
  async organizationCreditsUsed(orgId: string, from: Date, to: Date): Promise<number> {
    return roundCredits(await store.creditUnits(this.db, orgId, null, utcDay(from.getTime()), addDays(utcDay(to.getTime()), -1)));
  }
}
