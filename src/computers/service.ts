import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import { repoProblems, storedRepos } from './repo-policy.js';
import { isManagerRole, type Principal } from '../core/identity/roles.js';
import type { IdentityService } from '../core/identity/service.js';
import { jobsStore } from './steps-store.js';
import type { E2bClient } from './providers/e2b-client.js';
import type { CreateComputerInput, InstallSessionView, UpdateComputerInput } from './schemas.js';
import { E2B_MISSING, planSteps, type ProviderType } from './step-machine.js';
import { computersStore as store, type ComputerRow } from './store.js';
import { sessionView, stepView, type ComputerRecord } from './view.js';
import type { WorkSignal } from './work-signal.js';

export interface ComputersSettings {
  e2bConfigured: boolean;
  /** CI_ALLOW_PRIVATE_NETWORK: file:// and internal hosts may be cloned. */
  allowPrivateNetwork?: boolean;
}

export interface ComputersDeps {
  db: Db;
  /** Finds the service account a computer is created for. */
  identity: IdentityService;
  settings: ComputersSettings;
  /** Wakes a host agent's long poll when its computer has new work. */
  signal: WorkSignal;
  clock: Clock;
  /** The E2B cloud, when configured: deleting an e2b computer kills its sandbox. */
  e2b?: E2bClient;
}

const invalidField = (path: string, message: string) => errors.invalid([{ path, message }]);

/** The computers API: rules, ownership and state changes; SQL lives in the stores. */
export class ComputersService {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly settings: ComputersSettings;
  private readonly signal: WorkSignal;
  private readonly clock: Clock;
  private readonly e2b: E2bClient | undefined;

  constructor({ db, identity, settings, signal, clock, e2b }: ComputersDeps) {
    this.db = db;
    this.identity = identity;
    this.settings = settings;
    this.signal = signal;
    this.clock = clock;
    this.e2b = e2b;
  }

  async create(actor: Principal, input: CreateComputerInput): Promise<ComputerRecord> {
    const provider: ProviderType = input.provider ?? (this.settings.e2bConfigured && input.hostId === undefined ? 'e2b' : 'byom');
    if (provider === 'e2b' && input.hostId !== undefined) throw invalidField('/hostId', 'applies to byom computers only');
    let owner: { kind: 'user' | 'service_account'; id: string } = { kind: actor.kind, id: actor.id };
    if (input.serviceAccountId !== undefined) {
      if (!isManagerRole(actor.role)) throw errors.forbidden('Only owners and managers may create a computer owned by a service account.');
      const sa = await this.identity.findPrincipal(actor.orgId, { id: input.serviceAccountId });
      if (sa?.kind !== 'service_account') throw invalidField('/serviceAccountId', 'must name a service account of the organization');
      owner = { kind: 'service_account', id: sa.id };
    }
    const problems = await repoProblems(input.repos ?? [], this.settings.allowPrivateNetwork ?? false);
    if (problems.length > 0) throw errors.invalid(problems);
    const repos = storedRepos(input.repos ?? []);
    const autoInstallDeps = input.autoInstallDeps ?? true;
    const id = randomUUID();
    const steps = planSteps(provider, { repos: repos.length, autoInstallDeps, e2bMissing: this.settings.e2bConfigured ? undefined : E2B_MISSING });
    await this.db.transaction(() =>
      store.insert(
        this.db,
        {
          id,
          org_id: actor.orgId,
          name: input.name,
          provider,
          owner_kind: owner.kind,
          owner_id: owner.id,
          host_id: input.hostId ?? null,
          remote_user: input.remoteUser ?? null,
          repos,
          auto_install_deps: autoInstallDeps,
          source: input.source ?? null,
        },
        steps,
        this.clock.now(),
      ),
    );
    this.signal.notify(id);
    return this.get(actor, { id });
  }

  async get(actor: Principal, by: { id: string } | { name: string }): Promise<ComputerRecord> {
    const found = await store.findWithSteps(this.db, actor.orgId, by, this.ownerFilter(actor));
    if (!found) throw errors.notFound('Computer', 'computer_not_found');
    return found;
  }

  async list(actor: Principal, filter: { hostId?: string }): Promise<ComputerRecord[]> {
    const rows = await store.list(this.db, actor.orgId, { ...filter, ownerId: this.ownerFilter(actor) });
    const steps = await store.steps(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((computer) => ({ computer, steps }));
  }

  async update(actor: Principal, id: string, patch: UpdateComputerInput): Promise<ComputerRecord> {
    await this.db.transaction(async () => {
      const c = await this.mustFind(actor, { id }, true);
      if (c.provider === 'e2b' && patch.hostId !== undefined) throw invalidField('/hostId', 'applies to byom computers only');
      const moved = patch.hostId !== undefined && c.host_id !== null && patch.hostId.toLowerCase() !== c.host_id;
      if (moved && !(await jobsStore.restartOnNewHost(this.db, c.id)))
        throw errors.conflict('step_running', 'A provisioning step is running on the current host; wait for it to end before moving the computer.');
      await store.update(this.db, c.id, patch);
    });
    return this.get(actor, { id });
  }

  /** Deletes the computer after releasing what its provider holds (the e2b sandbox). */
  async delete(actor: Principal, id: string): Promise<void> {
    const c = await this.mustFind(actor, { id });
    if (c.provider === 'e2b' && c.sandbox_id !== null && this.e2b) {
      try {
        await this.e2b.kill(c.sandbox_id);
      } catch (e) {
        throw errors.badGateway(`E2B did not release sandbox ${c.sandbox_id}: ${(e as Error).message}`, undefined, e);
      }
    }
    await this.db.transaction(() => store.delete(this.db, c.id));
    this.signal.notify(c.id);
  }

  /** 202 with the computer when a fresh session was queued; 409 while one is running. */
  async installDeps(actor: Principal, id: string): Promise<ComputerRecord> {
    const sessionId = randomUUID();
    const { start, computerId } = await this.db.transaction(async () => {
      const c = await this.mustFind(actor, { id });
      return { start: await jobsStore.startInstall(this.db, c.id, sessionId, this.clock.now()), computerId: c.id };
    });
    if (!start.started) {
      const running = start.runningSessionId;
      throw errors.conflict(
        'install_running',
        running
          ? `Install session ${running} is already running on this computer; wait for it to end (GET …/install-sessions/${running}).`
          : 'The install step is already running on this computer (as part of provisioning); wait for it to end.',
        { installSessionId: running },
      );
    }
    // Waiters are keyed by the stored id, not by the spelling in the path (UUIDs match in any case).
    this.signal.notify(computerId);
    return this.get(actor, { id });
  }

  async session(actor: Principal, id: string, sessionId: string): Promise<InstallSessionView> {
    const c = await this.mustFind(actor, { id });
    const s = await jobsStore.session(this.db, c.id, sessionId);
    if (!s) throw errors.notFound('Install session', 'install_session_not_found');
    return sessionView(s);
  }

  async step(actor: Principal, id: string, stepId: string) {
    const c = await this.mustFind(actor, { id });
    const s = await store.stepLog(this.db, c.id, stepId);
    if (!s) throw errors.notFound('Provisioning step', 'step_not_found');
    return { ...stepView(s), log: s.log };
  }

  /** Members reach only their own computers; everything else of the organization is 404 to them. */
  ownerFilter(actor: Principal): string | undefined {
    return isManagerRole(actor.role) ? undefined : actor.id;
  }

  async mustFind(actor: Principal, by: { id: string } | { name: string }, lock = false): Promise<ComputerRow> {
    const c = await store.find(this.db, actor.orgId, by, this.ownerFilter(actor), lock);
    if (!c) throw errors.notFound('Computer', 'computer_not_found');
    return c;
  }
}
