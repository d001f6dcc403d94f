import { Type, type Static } from '@sinclair/typebox';

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;
/** The largest report body accepted (413 beyond): about fifty times a full report of 84 criteria. */
export const REPORT_MAX_BYTES = 512 * 1024;
/** A page of the list ends once its reports' maps reach this size (it always holds one report). */
export const PAGE_MAX_BYTES = 4 * 1024 * 1024;

const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const MapKey = { minLength: 1, maxLength: 512 };

export const ReasoningEffort = Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high'), Type.Literal('off')]);

export const CriterionEvaluation = Type.Object(
  {
    numerator: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Sub-applications passing: 0 up to denominator; null when the criterion was skipped (it does not apply, or its evidence was out of reach)',
    }),
    denominator: Type.Integer({ minimum: 1, description: 'Sub-applications evaluated: at least 1' }),
    rationale: Type.String({ maxLength: 20_000 }),
  },
  { additionalProperties: false },
);

export const AppDescription = Type.Object({ description: Type.String({ maxLength: 20_000 }) }, { additionalProperties: false });

export const ModelUsed = Type.Object({ id: Text(200), reasoningEffort: ReasoningEffort }, { additionalProperties: false });

/** The fields a client sends; reportId and createdAt are assigned by the service. */
const uploadFields = {
  repoUrl: Text(
    2048,
    'Repository evaluated (https, http, ssh, git, scp-like git@host:owner/repo); kept without credentials (user information, an ssh password), query or fragment',
  ),
  apps: Type.Record(Type.String(), AppDescription, {
    propertyNames: MapKey,
    maxProperties: 1000,
    description: 'Map from application path to {description}',
  }),
  report: Type.Record(Type.String(), CriterionEvaluation, {
    propertyNames: MapKey,
    maxProperties: 1000,
    description: 'Map from criterion id to its evaluation',
  }),
  commitHash: Type.Optional(
    Text(64, "The commit evaluated: a full or abbreviated Git commit id, or another version control system's id (any text of 1 to 64 characters)"),
  ),
  branch: Type.Optional(Text(255)),
  hasLocalChanges: Type.Optional(Type.Boolean({ description: 'Uncommitted changes existed' })),
  hasNonRemoteCommits: Type.Optional(Type.Boolean({ description: 'Unpushed commits existed' })),
  modelUsed: Type.Optional(ModelUsed),
  droidVersion: Type.Optional(Text(100, 'CLI version that generated the report')),
};

export const ReportUpload = Type.Object(uploadFields, { additionalProperties: false, title: 'ReadinessReportUpload' });
export type ReportUpload = Static<typeof ReportUpload>;

export const Report = Type.Object(
  {
    reportId: Type.String({ format: 'uuid' }),
    createdAt: Type.Integer({ description: 'Unix timestamp in milliseconds, assigned by the service' }),
    repoId: Type.String({ description: 'Canonical repository id derived from repoUrl (host/path, lower case)' }),
    ...uploadFields,
  },
  { title: 'ReadinessReport' },
);
export type Report = Static<typeof Report>;

export const ReportList = Type.Object({ reports: Type.Array(Report) });

export const ListQuery = Type.Object({
  repoId: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Only reports of this repository (a repoId, or any URL of it)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_PAGE, description: `Page size; values above ${MAX_PAGE} are served as ${MAX_PAGE}` })),
  startAfter: Type.Optional(Type.String({ format: 'uuid', description: 'The reportId of the last report of the previous page' })),
});
export type ListQuery = Static<typeof ListQuery>;

/** How many of a repository's newest reports the summary's history holds. */
export const HISTORY_PER_REPOSITORY = 30;

const Rate = (description?: string) => Type.Number({ minimum: 0, maximum: 1, ...(description ? { description } : {}) });
const LevelNumber = (description?: string) => Type.Integer({ minimum: 1, maximum: 5, ...(description ? { description } : {}) });

export const PillarScore = Type.Object(
  {
    pillar: Type.String(),
    passed: Type.Integer({ minimum: 0, description: 'Criteria of the pillar that every application passes' }),
    evaluated: Type.Integer({ minimum: 0, description: 'Criteria of the pillar evaluated (skipped ones left out)' }),
    rate: Type.Union([Rate(), Type.Null()], { description: 'passed / evaluated; null when nothing of the pillar was evaluated' }),
  },
  { title: 'ReadinessPillarScore' },
);

const ReportScore = {
  reportId: Type.String({ format: 'uuid' }),
  createdAt: Type.Integer({ description: 'Unix timestamp in milliseconds' }),
  level: LevelNumber('Level by the 80 % rule: level N+1 once at least 80 % of level N passes'),
  bandLevel: LevelNumber('Level by pass-rate bands of 20 % (0-20 % is 1, 80-100 % is 5)'),
  passRate: Rate('Mean of numerator / denominator over the criteria evaluated'),
};

export const TrendPeriod = Type.Union([Type.Literal('7d'), Type.Literal('1m'), Type.Literal('6m'), Type.Literal('1y'), Type.Literal('all')], {
  description: 'The trend period: 7 days, 1 month (30 days), 6 months (182 days), 1 year (365 days), or all reports',
});
export type TrendPeriod = Static<typeof TrendPeriod>;

export const SummaryQuery = Type.Object({ period: Type.Optional(TrendPeriod) });
export type SummaryQuery = Static<typeof SummaryQuery>;

export const ReadinessTrend = Type.Object(
  {
    period: TrendPeriod,
    since: Type.Union([Type.Integer(), Type.Null()], { description: 'Start of the period (ms); null for all' }),
    organization: Type.Array(
      Type.Object({
        at: Type.Integer({ description: 'createdAt of the report after which the organization stood here' }),
        reportId: Type.String({ format: 'uuid' }),
        repositories: Type.Integer({ minimum: 1, description: 'Repositories with a report by then (the period may start with earlier ones)' }),
        level: LevelNumber("Mean of each repository's latest level by then, rounded down"),
        passRate: Rate("Mean of each repository's latest pass rate by then"),
      }),
      { description: 'One point per report of the period, oldest first' },
    ),
    repositories: Type.Array(
      Type.Object({ repoId: Type.String(), points: Type.Array(Type.Object(ReportScore), { description: 'The reports of the period, oldest first' }) }),
      { description: 'Repositories with a report in the period, ordered by repoId' },
    ),
  },
  { title: 'ReadinessTrend' },
);
export type ReadinessTrend = Static<typeof ReadinessTrend>;

export const ReadinessSummary = Type.Object(
  {
    organization: Type.Object({
      level: Type.Union([LevelNumber(), Type.Null()], { description: "Mean of each repository's latest level, rounded down; null without reports" }),
      repositories: Type.Integer({ minimum: 0 }),
      lastEvaluatedAt: Type.Union([Type.Integer(), Type.Null()], { description: 'createdAt of the newest report' }),
    }),
    repositories: Type.Array(
      Type.Object({
        repoId: Type.String(),
        repoUrl: Type.String({ description: 'repoUrl of the latest report' }),
        reports: Type.Integer({ minimum: 1, description: 'Reports stored for the repository' }),
        latest: Type.Object({
          ...ReportScore,
          commitHash: Type.Optional(Type.String()),
          branch: Type.Optional(Type.String()),
          pillars: Type.Array(PillarScore),
        }),
        history: Type.Array(Type.Object(ReportScore), { description: `The newest ${HISTORY_PER_REPOSITORY} reports, newest first` }),
      }),
      { description: 'Ordered by repoId' },
    ),
    trend: ReadinessTrend,
  },
  { title: 'ReadinessSummary' },
);
export type ReadinessSummary = Static<typeof ReadinessSummary>;

export const ReadinessCriteria = Type.Object(
  {
    levelUp: Rate('The share of a level that must pass (by the mean of numerator / denominator) to reach the next level'),
    pillars: Type.Array(Type.String(), { description: 'The pillars, in the order dashboards show them' }),
    criteria: Type.Array(
      Type.Object({
        id: Type.String(),
        pillar: Type.String(),
        level: LevelNumber(),
        scope: Type.Union([Type.Literal('repository'), Type.Literal('application')], {
          description: 'repository: evaluated once; application: once per application',
        }),
        skippable: Type.Boolean({ description: 'May be reported as skipped (numerator null) where it does not apply' }),
        checks: Type.String({ description: 'What passes it, in a sentence' }),
      }),
      { description: 'Every criterion of the readiness model, by pillar' },
    ),
  },
  { title: 'ReadinessCriteria' },
);
export type ReadinessCriteria = Static<typeof ReadinessCriteria>;
