import { randomUUID } from 'node:crypto';
import type { Db } from '../core/db/db.js';
import { errors, type ErrorItem } from '../core/http/errors.js';
import type { Principal } from '../core/identity/roles.js';
import { startPosition } from '../core/db/keyset.js';
import { canonicalRepoId, notARepoUrl, withoutCredentials } from '../core/net/repo-id.js';
import { CRITERIA, PILLARS } from './criteria.js';
import { noOutbox, type Outbox } from '../core/outbox.js';
import { LEVEL_UP, scoreReport, organizationLevel, type Evaluation } from './levels.js';
import {
  DEFAULT_PAGE,
  HISTORY_PER_REPOSITORY,
  MAX_PAGE,
  PAGE_MAX_BYTES,
  type ReadinessCriteria,
  type ReadinessSummary,
  type ListQuery,
  type Report,
  type ReportUpload,
  type TrendPeriod,
} from './schemas.js';
import { readinessStore as store, type ReportRow } from './store.js';
import { buildTrend, periodStart } from './trend.js';
import { millisOf, type Clock } from '../core/clock.js';

/** The trend period when the request names none. */
const DEFAULT_PERIOD: TrendPeriod = '1m';

export interface ReadinessDeps {
  db: Db;
  clock: Clock;
  /** Where an upload tells of its report and of a level change (webhooks); by default nowhere. */
  outbox?: Outbox;
}

export class ReadinessService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly outbox: Outbox;

  constructor({ db, clock, outbox = noOutbox }: ReadinessDeps) {
    this.db = db;
    this.clock = clock;
    this.outbox = outbox;
  }

  /** The readiness model itself, so a dashboard can place each criterion of a report in its level and pillar. */
  criteria(): ReadinessCriteria {
    return { levelUp: LEVEL_UP, pillars: [...PILLARS], criteria: CRITERIA.map((c) => ({ ...c })) };
  }

  /**
   * Checks what the schema cannot express, canonicalises the repository and stores the report.
   * `schemaProblems` are the schema's findings on the same body: the checks here run on whatever
   * parts are well-formed, so one answer lists every problem.
   */
  async upload(actor: Principal, body: ReportUpload, schemaProblems: ErrorItem[] = []): Promise<Report> {
    const problems: ErrorItem[] = [...schemaProblems];
    const flagged = new Set(problems.map((p) => p.path));
    const add = (p: ErrorItem) => {
      if (!flagged.has(p.path)) problems.push(p);
    };
    // Stored and shown to every role: a token in the URL (CI checkouts have them) is left out here.
    const repoUrl = typeof body?.repoUrl === 'string' ? withoutCredentials(body.repoUrl) : undefined;
    const repoId = repoUrl === undefined ? undefined : canonicalRepoId(repoUrl);
    if (typeof body?.repoUrl === 'string' && repoId === undefined) {
      add({ path: '/repoUrl', message: notARepoUrl(body.repoUrl) });
    }
    const report: unknown = body?.report;
    if (report !== null && typeof report === 'object') {
      for (const [criterion, e] of Object.entries(report as Record<string, { numerator?: unknown; denominator?: unknown }>)) {
        if (typeof e?.numerator === 'number' && typeof e.denominator === 'number' && e.numerator > e.denominator) {
          add({ path: `/report/${pointer(criterion)}/numerator`, message: 'must be <= denominator' });
        }
      }
    }
    if (problems.length > 0) throw errors.invalid(problems);
    // The events are written with the report (docs/webhooks.md); the level compared is the newest report's before this one.
    const row = await this.db.transaction(async () => {
      const before = await store.newestReport(this.db, actor.orgId, repoId as string);
      const stored = await store.insert(this.db, {
        reportId: randomUUID(),
        orgId: actor.orgId,
        repoId: repoId as string,
        uploadedBy: actor.id,
        body: { ...body, repoUrl: repoUrl as string },
      });
      const { level, passRate } = scoreReport(stored.report as Record<string, Evaluation>);
      const data = { reportId: stored.report_id, repoId: stored.repo_id };
      await this.outbox.emit(actor.orgId, 'readiness.report_created', { ...data, repoUrl: stored.repo_url, level, passRate });
      const previous = before === undefined ? undefined : scoreReport(before as Record<string, Evaluation>).level;
      if (previous !== undefined && previous !== level)
        await this.outbox.emit(actor.orgId, 'readiness.level_changed', { ...data, previousLevel: previous, level });
      return stored;
    });
    return toReport(row);
  }

  /** Levels, pass rates and pillars of the organization's repositories, from their newest reports, and their trend over `period`. */
  async summary(orgId: string, period: TrendPeriod = DEFAULT_PERIOD): Promise<ReadinessSummary> {
    const since = periodStart(period, millisOf(this.clock));
    const trend = buildTrend(await store.trendReports(this.db, orgId, since ?? Number.MIN_SAFE_INTEGER), period, since);
    const rows = await store.newestPerRepository(this.db, orgId, HISTORY_PER_REPOSITORY);
    const repositories: ReadinessSummary['repositories'] = [];
    for (const row of rows) {
      const scores = scoreReport(JSON.parse(row.report) as Record<string, Evaluation>);
      const score = { reportId: row.report_id, createdAt: Number(row.created_at), level: scores.level, bandLevel: scores.bandLevel, passRate: scores.passRate };
      const last = repositories.at(-1);
      if (last !== undefined && last.repoId === row.repo_id) {
        last.history.push(score);
        continue;
      }
      repositories.push({
        repoId: row.repo_id,
        repoUrl: row.repo_url,
        reports: Number(row.reports),
        latest: {
          ...score,
          ...(row.commit_hash !== null ? { commitHash: row.commit_hash } : {}),
          ...(row.branch !== null ? { branch: row.branch } : {}),
          pillars: scores.pillars,
        },
        history: [score],
      });
    }
    return {
      organization: {
        level: organizationLevel(repositories.map((r) => r.latest.level)),
        repositories: repositories.length,
        lastEvaluatedAt: repositories.length === 0 ? null : Math.max(...repositories.map((r) => r.latest.createdAt)),
      },
      repositories,
      trend,
    };
  }

  /** One page, newest first; `startAfter` must name a report of the caller's organization. */
  async list(orgId: string, q: ListQuery): Promise<Report[]> {
    const after = await startPosition(q.startAfter, (id) => store.position(this.db, orgId, id), 'report');
    // A repoId filter may be given in any form of the repository's URL.
    const repoId = q.repoId === undefined ? undefined : (canonicalRepoId(q.repoId) ?? q.repoId.toLowerCase());
    const rows = await store.list(this.db, { orgId, repoId, after, limit: Math.min(q.limit ?? DEFAULT_PAGE, MAX_PAGE), maxBytes: PAGE_MAX_BYTES });
    return rows.map(toReport);
  }
}

/** A map key as a JSON Pointer segment (RFC 6901). */
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function toReport(r: ReportRow): Report {
  const out: Report = {
    reportId: r.report_id,
    createdAt: Number(r.created_at),
    repoId: r.repo_id,
    repoUrl: r.repo_url,
    apps: r.apps,
    report: r.report,
  };
  if (r.commit_hash !== null) out.commitHash = r.commit_hash;
  if (r.branch !== null) out.branch = r.branch;
  if (r.has_local_changes !== null) out.hasLocalChanges = r.has_local_changes;
  if (r.has_non_remote_commits !== null) out.hasNonRemoteCommits = r.has_non_remote_commits;
  if (r.model_id !== null && r.model_reasoning_effort !== null) out.modelUsed = { id: r.model_id, reasoningEffort: r.model_reasoning_effort };
  if (r.droid_version !== null) out.droidVersion = r.droid_version;
  return out;
}
