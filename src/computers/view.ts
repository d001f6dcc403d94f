import type { SessionRow } from './steps-store.js';
import type { ComputerView, InstallSessionView, ProvisioningStepView } from './schemas.js';
import { deriveStatus, stepName } from './step-machine.js';
import type { ComputerRow, StepRow } from './store.js';

const millis = (d: Date | null): number | undefined => (d === null ? undefined : d.getTime());

export function stepView(s: StepRow): ProvisioningStepView {
  return {
    id: s.step_id,
    name: stepName(s.step_id),
    status: s.status,
    error: s.error ?? undefined,
    startedAt: millis(s.started_at),
    completedAt: millis(s.completed_at),
    installSessionId: s.install_session_id ?? undefined,
  };
}

/** A computer as the service finds it: its row and provisioning steps (possibly with other computers' steps). */
export interface ComputerRecord {
  computer: ComputerRow;
  steps: StepRow[];
}

/** The response object of a computer; `baseUrl` is the service's public URL (relay URLs of byom computers). */
export function computerView({ computer: c, steps }: ComputerRecord, baseUrl: string): ComputerView {
  const own = steps.filter((s) => s.computer_id === c.id).sort((a, b) => a.position - b.position);
  const computerUrl = `${baseUrl}/api/v0/computers/${c.id}`;
  return {
    id: c.id,
    name: c.name,
    providerType: c.provider,
    createdAt: c.created_at.getTime(),
    hostId: c.host_id ?? undefined,
    hostname: c.hostname ?? undefined,
    status: deriveStatus(own.map((s) => s.status)),
    provisioningSteps: own.map(stepView),
    relayClientUrl: c.provider === 'byom' ? computerUrl : undefined,
    relayAgentUrl: c.provider === 'byom' ? `${computerUrl}/agent` : undefined,
    remoteUser: c.remote_user ?? undefined,
    clonedRepoDirectories: c.cloned_repo_directories ?? undefined,
    ownerPrincipalKind: c.owner_kind,
    ownerId: c.owner_id,
    computerSource: c.source ?? undefined,
  };
}

export function sessionView(s: SessionRow): InstallSessionView {
  return {
    id: s.id,
    computerId: s.computer_id,
    status: s.status,
    exitCode: s.exit_code,
    error: s.error,
    createdAt: s.created_at.getTime(),
    startedAt: s.started_at?.getTime() ?? null,
    endedAt: s.ended_at?.getTime() ?? null,
    log: s.log,
    logTruncated: s.log_truncated,
  };
}
