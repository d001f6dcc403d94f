/** The provisioning plan of each provider and the rules derived from step states. */
export type ProviderType = 'byom' | 'e2b';
export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';
export type ComputerStatus = 'provisioning' | 'active' | 'error';

export const INSTALL_STEP = 'install-dependencies';
export const E2B_MISSING = 'E2B is not configured: set E2B_API_KEY on the service to create e2b computers.';

const names: Record<string, string> = {
  'connect-host': 'Connect the host agent',
  'create-sandbox': 'Create the E2B sandbox',
  'configure-user': 'Configure the remote user',
  'clone-repos': 'Clone the repositories',
  'install-dependencies': 'Install dependencies',
};

export const STEP_IDS: Record<ProviderType, readonly string[]> = {
  byom: ['connect-host', 'clone-repos', INSTALL_STEP],
  e2b: ['create-sandbox', 'configure-user', 'clone-repos', INSTALL_STEP],
};

export const stepName = (id: string): string => names[id] ?? id;

export interface PlannedStep {
  stepId: string;
  position: number;
  status: StepStatus;
  error: string | null;
}

/** The steps a new computer starts with: skipped where there is nothing to do. */
export function planSteps(provider: ProviderType, opts: { repos: number; autoInstallDeps: boolean; e2bMissing?: string }): PlannedStep[] {
  return STEP_IDS[provider].map((stepId, position) => {
    if (stepId === 'clone-repos' && opts.repos === 0) return { stepId, position, status: 'skipped', error: null };
    if (stepId === INSTALL_STEP && !opts.autoInstallDeps) return { stepId, position, status: 'skipped', error: null };
    // Without E2B configured the first step fails at once, with a message naming the setting.
    if (stepId === 'create-sandbox' && opts.e2bMissing) return { stepId, position, status: 'failed', error: opts.e2bMissing };
    return { stepId, position, status: 'pending', error: null };
  });
}

/** error if any step failed, else provisioning while any is pending or running, else active. */
export function deriveStatus(statuses: readonly StepStatus[]): ComputerStatus {
  if (statuses.includes('failed')) return 'error';
  if (statuses.some((s) => s === 'pending' || s === 'running')) return 'provisioning';
  return 'active';
}

