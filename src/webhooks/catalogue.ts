import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Alert } from '../alerts/schemas.js';

const Uuid = Type.String({ format: 'uuid' });
/** An event's data has exactly the fields listed: emit refuses one more, so what is sent is what docs/webhooks.md says. */
const closed = { additionalProperties: false } as const;

const ThresholdCrossed = Type.Object(
  {
    alertId: Uuid,
    scope: Alert.properties.scope,
    scopeId: Alert.properties.scopeId,
    scopeName: Alert.properties.scopeName,
    threshold: Alert.properties.threshold,
    limit: Alert.properties.limit,
    used: Alert.properties.used,
    periodStart: Alert.properties.periodStart,
    periodEnd: Type.String({ format: 'date', description: 'First day (UTC) after the period' }),
  },
  closed,
);
const Computer = Type.Object({ computerId: Uuid, name: Type.String(), provider: Type.String(), ownerId: Uuid }, closed);
const ComputerFailed = Type.Composite([Computer, Type.Object({ stepId: Type.String(), error: Type.String() })], closed);
const ReportCreated = Type.Object(
  { reportId: Type.String(), repoId: Type.String(), repoUrl: Type.String(), level: Type.Integer(), passRate: Type.Number() },
  closed,
);
const LevelChanged = Type.Object(
  {
    repoId: Type.String(),
    reportId: Type.String(),
    previousLevel: Type.Integer(),
    level: Type.Integer(),
  },
  closed,
);
const PullRequestOpened = Type.Object(
  {
    repoUrl: Type.String(),
    action: Type.String(),
    workflowPath: Type.String(),
    url: Type.String(),
    number: Type.Integer(),
    branch: Type.String(),
    baseBranch: Type.String(),
    title: Type.String(),
  },
  closed,
);
const Member = Type.Object({ userId: Uuid, email: Type.String(), role: Type.String() }, closed);

/** Every event type, its data's schema, what it means, and an example of its data (docs/webhooks.md is made from these). */
export const CATALOGUE = {
  'usage.threshold_crossed': {
    data: ThresholdCrossed,
    summary: "A person's, team's or the organization's use this month reached a threshold of its budget (docs/alerts.md).",
    example: {
      alertId: '0e6f6d2c-4f41-4a54-9a34-9f0c1b8d0f11',
      scope: 'team',
      scopeId: '5b0f7c7e-1b7a-4d69-8a43-3f1f3a7e2c90',
      scopeName: 'Platform',
      threshold: 80,
      limit: 5000000,
      used: 4012345,
      periodStart: '2026-11-01',
      periodEnd: '2026-12-01',
    },
  },
  'computer.ready': {
    data: Computer,
    summary: 'Every provisioning step of a computer is done: it is active.',
    example: { computerId: '9a1c3f4e-7d2b-4e8a-b1c6-2f3d4e5a6b7c', name: 'ana-dev', provider: 'byom', ownerId: '3c2b1a09-8f7e-4d6c-b5a4-938271605f4e' },
  },
  'computer.failed': {
    data: ComputerFailed,
    summary: 'A provisioning step of a computer failed; the computer is in error.',
    example: {
      computerId: '9a1c3f4e-7d2b-4e8a-b1c6-2f3d4e5a6b7c',
      name: 'ana-dev',
      provider: 'e2b',
      ownerId: '3c2b1a09-8f7e-4d6c-b5a4-938271605f4e',
      stepId: 'install-dependencies',
      error: 'npm ci exited with code 1',
    },
  },
  'readiness.report_created': {
    data: ReportCreated,
    summary: 'A readiness report was uploaded.',
    example: { reportId: 'rpt_01', repoId: 'github.com/acme/api', repoUrl: 'https://github.com/acme/api', level: 3, passRate: 0.62 },
  },
  'readiness.level_changed': {
    data: LevelChanged,
    summary: "A repository's latest report has another level than the report before it.",
    example: { repoId: 'github.com/acme/api', reportId: 'rpt_02', previousLevel: 2, level: 3 },
  },
  'ci.pull_request_opened': {
    data: PullRequestOpened,
    summary: 'CI automation opened a pull request.',
    example: {
      repoUrl: 'https://github.com/acme/api',
      action: 'create',
      workflowPath: '.github/workflows/ci.yml',
      url: 'https://github.com/acme/api/pull/42',
      number: 42,
      branch: 'orgctl/ci-1a2b3c',
      baseBranch: 'main',
      title: 'Add CI workflow',
    },
  },
  'member.added': {
    data: Member,
    summary: 'A user joined the organization.',
    example: { userId: '3c2b1a09-8f7e-4d6c-b5a4-938271605f4e', email: 'ana@example.com', role: 'member' },
  },
  'member.removed': {
    data: Member,
    summary: 'A user was removed from the organization.',
    example: { userId: '3c2b1a09-8f7e-4d6c-b5a4-938271605f4e', email: 'ana@example.com', role: 'member' },
  },
} as const satisfies Record<string, { data: TSchema; summary: string; example: unknown }>;

export type EventType = keyof typeof CATALOGUE;
export type EventData<T extends EventType> = Static<(typeof CATALOGUE)[T]['data']>;
export const EVENT_TYPES = Object.keys(CATALOGUE) as EventType[];

export const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'An event type of the catalogue (docs/webhooks.md)' },
);

/** The body of every delivery (Standard Webhooks): the type, when it happened (ISO 8601), its data. */
export const envelope = (type: EventType, at: Date, data: unknown) => ({ type, timestamp: at.toISOString(), data });
