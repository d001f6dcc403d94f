import { Type, type Static } from '@sinclair/typebox';
import { UuidParam } from '../core/http/params.js';

/** Names: 1 to 63 characters, no `/` and no control characters (C0, DEL, C1). */
// A name is also a directory name on a byom machine: `.` and `..` are refused.
const NAME_PATTERN = '^(?!\\.{1,2}$)[^/\\u0000-\\u001f\\u007f-\\u009f]+$';
export const ComputerName = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: NAME_PATTERN,
  description: '1 to 63 characters, no `/`, no control characters, not `.` or `..`; unique in the organization',
});
const RemoteUser = Type.String({ minLength: 1, maxLength: 63, description: 'The OS user a client works as on the computer' });
const HostId = Type.String({ format: 'uuid', description: 'The stable id of the machine (kept by `orgctl agent` on it)' });
export const Provider = Type.Union([Type.Literal('byom'), Type.Literal('e2b')]);
export const StepStatus = Type.Union(['pending', 'running', 'succeeded', 'failed', 'skipped'].map((s) => Type.Literal(s)));
export const ComputerStatus = Type.Union([Type.Literal('provisioning'), Type.Literal('active'), Type.Literal('error')]);
const Millis = Type.Integer({ description: 'Unix time in milliseconds' });
const Source = Type.Object(
  { kind: Type.Literal('template'), templateId: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false, description: 'Where the computer comes from' },
);

export const CreateComputerBody = Type.Object(
  {
    name: ComputerName,
    provider: Type.Optional(Provider),
    hostId: Type.Optional(HostId),
    remoteUser: Type.Optional(RemoteUser),
    repos: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
        maxItems: 20,
        description:
          'Git repositories to clone, at most 20 of at most 2048 characters: https://, ssh://, git:// or ' +
          'git@host:owner/repo (file:// and internal hosts only where the server allows private networks); kept without ' +
          'credentials, so the machine clones with its own',
      }),
    ),
    autoInstallDeps: Type.Optional(Type.Boolean({ description: 'Install dependencies after cloning (default true)' })),
    serviceAccountId: Type.Optional(Type.String({ format: 'uuid', description: 'A service account of the organization that becomes the owner' })),
    source: Type.Optional(Source),
  },
  { additionalProperties: false },
);
export type CreateComputerInput = Static<typeof CreateComputerBody>;

export const UpdateComputerBody = Type.Object(
  { name: Type.Optional(ComputerName), hostId: Type.Optional(HostId), remoteUser: Type.Optional(RemoteUser) },
  { additionalProperties: false },
);
export type UpdateComputerInput = Static<typeof UpdateComputerBody>;

const ComputerId = UuidParam('Computer', 'computer_not_found');
export const ComputerIdParams = Type.Object({ computerId: ComputerId });
export const ComputerNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 63 }) });
export const SessionParams = Type.Object({ computerId: ComputerId, sessionId: UuidParam('Install session', 'install_session_not_found') });
export const StepParams = Type.Object({ computerId: ComputerId, stepId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ListQuery = Type.Object({ hostId: Type.Optional(HostId) });

export const ProvisioningStep = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: StepStatus,
  error: Type.Optional(Type.String()),
  startedAt: Type.Optional(Millis),
  completedAt: Type.Optional(Millis),
  installSessionId: Type.Optional(Type.String()),
});
export type ProvisioningStepView = Static<typeof ProvisioningStep>;

export const Computer = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    providerType: Provider,
    createdAt: Millis,
    hostId: Type.Optional(Type.String({ format: 'uuid' })),
    hostname: Type.Optional(Type.String()),
    status: ComputerStatus,
    provisioningSteps: Type.Array(ProvisioningStep),
    relayClientUrl: Type.Optional(Type.String({ format: 'uri' })),
    relayAgentUrl: Type.Optional(Type.String({ format: 'uri' })),
    remoteUser: Type.Optional(Type.String()),
    clonedRepoDirectories: Type.Optional(Type.Array(Type.String())),
    ownerPrincipalKind: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('service_account')])),
    ownerId: Type.Optional(Type.String()),
    computerSource: Type.Optional(Source),
  },
  { $id: 'Computer', title: 'Computer' },
);
export type ComputerView = Static<typeof Computer>;
export const ComputerList = Type.Object({ computers: Type.Array(Type.Ref(Computer)) });

export const StepDetail = Type.Composite([ProvisioningStep, Type.Object({ log: Type.String({ description: 'The tail of the step output' }) })]);

export const InstallSession = Type.Object({
  id: Type.String(),
  computerId: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Millis,
  startedAt: Type.Union([Millis, Type.Null()], { description: 'When the executor (host agent or engine) started the session; null while queued' }),
  endedAt: Type.Union([Millis, Type.Null()]),
  log: Type.String({ description: 'The output of the install, its tail when longer than the kept maximum' }),
  logTruncated: Type.Boolean({ description: 'True when the beginning of the log was dropped' }),
});
export type InstallSessionView = Static<typeof InstallSession>;

// The host agent's extension endpoints.
export const RegisterBody = Type.Object(
  { hostId: HostId, hostname: Type.String({ minLength: 1, maxLength: 255 }), remoteUser: RemoteUser },
  { additionalProperties: false },
);
export const ClaimBody = Type.Object(
  {
    hostId: HostId,
    waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, description: 'Hold the request this long when no work is ready (long poll)' })),
  },
  { additionalProperties: false },
);
export const Job = Type.Object({
  stepId: Type.String(),
  leaseToken: Type.String(),
  heartbeatIntervalMs: Type.Integer(),
  computerName: Type.String(),
  repos: Type.Array(Type.String()),
  clonedRepoDirectories: Type.Array(Type.String()),
  installSessionId: Type.Optional(Type.String()),
});
export type JobView = Static<typeof Job>;
export const ClaimResult = Type.Object({ job: Type.Union([Job, Type.Null()]) });
const LogChunk = Type.String({ maxLength: 256 * 1024 });
export const HeartbeatBody = Type.Object(
  { leaseToken: Type.String({ minLength: 1, maxLength: 200 }), log: Type.Optional(LogChunk) },
  { additionalProperties: false },
);
export const HeartbeatResult = Type.Object({ leaseExpiresAt: Millis });
export const CompleteBody = Type.Object(
  {
    leaseToken: Type.String({ minLength: 1, maxLength: 200 }),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
    error: Type.Optional(Type.String({ maxLength: 8192 })),
    exitCode: Type.Optional(Type.Integer()),
    log: Type.Optional(LogChunk),
    clonedRepoDirectories: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type CompleteInput = Static<typeof CompleteBody>;
