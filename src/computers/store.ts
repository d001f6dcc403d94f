import { isUniqueViolation, type Queryable } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import { endedAtPlanning, STATUS, type PlannedStep, type ProviderType, type StepStatus } from './step-machine.js';

export interface ComputerRow {
  id: string;
  org_id: string;
  name: string;
  provider: ProviderType;
  owner_kind: 'user' | 'service_account';
  owner_id: string;
  host_id: string | null;
  hostname: string | null;
  remote_user: string | null;
  repos: string[];
  auto_install_deps: boolean;
  source: { kind: 'template'; templateId: string } | null;
  cloned_repo_directories: string[] | null;
  sandbox_id: string | null;
  agent_seen_at: Date | null;
  created_at: Date;
}

export interface StepRow {
  computer_id: string;
  step_id: string;
  position: number;
  status: StepStatus;
  error: string | null;
  started_at: Date | null;
  completed_at: Date | null;
  install_session_id: string | null;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
}

const stepColumns = `computer_id, step_id, position, status, error, started_at, completed_at, install_session_id, attempts, lease_owner, lease_expires_at`;
const nameTaken = (name: string) => errors.conflict('name_taken', `A computer named "${name}" already exists in this organization.`, { field: 'name' });

/** Translates the name clash of the unique index into the domain's 409. */
async function guardName<T>(name: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUniqueViolation(e, 'computers_org_name_key')) throw nameTaken(name ?? '');
    throw e;
  }
}

// jsonb parameters are sent as text and cast: postgres.js would JSON-encode a string bound to a jsonb parameter again.
export const computersStore = {
  async insert(
    db: Queryable,
    c: Omit<ComputerRow, 'created_at' | 'agent_seen_at' | 'sandbox_id' | 'cloned_repo_directories' | 'hostname'>,
    steps: PlannedStep[],
    now: Date,
  ): Promise<void> {
    await guardName(c.name, () =>
      db.query(
        `INSERT INTO computers (id, org_id, name, provider, owner_kind, owner_id, host_id, remote_user, repos, auto_install_deps, source, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb, $10, $11::text::jsonb, $12)`,
        [
          c.id,
          c.org_id,
          c.name,
          c.provider,
          c.owner_kind,
          c.owner_id,
          c.host_id,
          c.remote_user,
          JSON.stringify(c.repos),
          c.auto_install_deps,
          c.source === null ? null : JSON.stringify(c.source),
          now,
        ],
      ),
    );
    for (const s of steps) {
      await db.query(
        `INSERT INTO computer_steps (computer_id, step_id, position, status, error, started_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [c.id, s.stepId, s.position, s.status, s.error, s.status === STATUS.failed ? now : null, endedAtPlanning(s.status) ? now : null],
      );
    }
  },

  /** A computer of the organization by id; `ownerId` limits it to that owner's computers. */
  async find(db: Queryable, orgId: string, by: { id: string } | { name: string }, ownerId?: string, lock = false): Promise<ComputerRow | undefined> {
    const [column, value] = 'id' in by ? ['id', by.id] : ['name', by.name];
    const rows = await db.query<ComputerRow>(
      `SELECT * FROM computers WHERE org_id = $1 AND ${column} = $2 AND ($3::uuid IS NULL OR owner_id = $3::uuid)${lock ? ' FOR UPDATE' : ''}`,
      [orgId, value, ownerId ?? null],
    );
    return rows[0];
  },

  /** find() and the computer's steps in one round trip (the hot read path: GET a computer). */
  async findWithSteps(
    db: Queryable,
    orgId: string,
    by: { id: string } | { name: string },
    ownerId?: string,
  ): Promise<{ computer: ComputerRow; steps: StepRow[] } | undefined> {
    const [column, value] = 'id' in by ? ['id', by.id] : ['name', by.name];
    const rows = await db.query<
      ComputerRow & {
        steps: (Omit<StepRow, 'started_at' | 'completed_at' | 'lease_expires_at'> &
          Record<'started_at' | 'completed_at' | 'lease_expires_at', string | null>)[];
      }
    >(
      `SELECT c.*, COALESCE((SELECT json_agg(json_build_object(
           'computer_id', s.computer_id, 'step_id', s.step_id, 'position', s.position, 'status', s.status, 'error', s.error,
           'started_at', s.started_at, 'completed_at', s.completed_at, 'install_session_id', s.install_session_id,
           'attempts', s.attempts, 'lease_owner', s.lease_owner, 'lease_expires_at', s.lease_expires_at) ORDER BY s.position)
         FROM computer_steps s WHERE s.computer_id = c.id), '[]'::json) AS steps
       FROM computers c WHERE c.org_id = $1 AND c.${column} = $2 AND ($3::uuid IS NULL OR c.owner_id = $3::uuid)`,
      [orgId, value, ownerId ?? null],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { steps, ...computer } = row;
    const date = (v: string | null) => (v === null ? null : new Date(v));
    return {
      computer,
      steps: (typeof steps === 'string' ? JSON.parse(steps) : steps).map((st: (typeof steps)[number]) => ({
        ...st,
        started_at: date(st.started_at),
        completed_at: date(st.completed_at),
        lease_expires_at: date(st.lease_expires_at),
      })),
    };
  },

  async findById(db: Queryable, id: string): Promise<ComputerRow | undefined> {
    return (await db.query<ComputerRow>(`SELECT * FROM computers WHERE id = $1`, [id]))[0];
  },

  async list(db: Queryable, orgId: string, filter: { ownerId?: string; hostId?: string }): Promise<ComputerRow[]> {
    return db.query<ComputerRow>(
      `SELECT * FROM computers WHERE org_id = $1 AND ($2::uuid IS NULL OR owner_id = $2::uuid) AND ($3::uuid IS NULL OR host_id = $3::uuid)
       ORDER BY created_at, id`,
      [orgId, filter.ownerId ?? null, filter.hostId ?? null],
    );
  },

  async update(db: Queryable, id: string, patch: { name?: string; hostId?: string; remoteUser?: string }): Promise<void> {
    await guardName(patch.name, () =>
      db.query(`UPDATE computers SET name = COALESCE($2, name), host_id = COALESCE($3::uuid, host_id), remote_user = COALESCE($4, remote_user) WHERE id = $1`, [
        id,
        patch.name ?? null,
        patch.hostId ?? null,
        patch.remoteUser ?? null,
      ]),
    );
  },

  async registerHost(db: Queryable, id: string, host: { hostId: string; hostname: string; remoteUser: string }, now: Date): Promise<void> {
    await db.query(`UPDATE computers SET host_id = $2, hostname = $3, remote_user = COALESCE(remote_user, $4), agent_seen_at = $5 WHERE id = $1`, [
      id,
      host.hostId,
      host.hostname,
      host.remoteUser,
      now,
    ]);
  },

  /** The e2b provider's user, unless the computer was created with one. */
  async setRemoteUserIfUnset(db: Queryable, id: string, user: string): Promise<void> {
    await db.query(`UPDATE computers SET remote_user = COALESCE(remote_user, $2) WHERE id = $1`, [id, user]);
  },

  async touchAgent(db: Queryable, id: string, now: Date): Promise<void> {
    await db.query(`UPDATE computers SET agent_seen_at = $2 WHERE id = $1`, [id, now]);
  },

  async setClonedDirectories(db: Queryable, id: string, dirs: string[]): Promise<void> {
    await db.query(`UPDATE computers SET cloned_repo_directories = $2::text::jsonb WHERE id = $1`, [id, JSON.stringify(dirs)]);
  },

  async setSandbox(db: Queryable, id: string, sandboxId: string | null): Promise<void> {
    await db.query(`UPDATE computers SET sandbox_id = $2 WHERE id = $1`, [id, sandboxId]);
  },

  async delete(db: Queryable, id: string): Promise<void> {
    await db.query(`DELETE FROM computers WHERE id = $1`, [id]);
  },

  async steps(db: Queryable, computerIds: string[]): Promise<StepRow[]> {
    if (computerIds.length === 0) return [];
    return db.query<StepRow>(`SELECT ${stepColumns} FROM computer_steps WHERE computer_id = ANY($1::uuid[]) ORDER BY computer_id, position`, [computerIds]);
  },

  async stepLog(db: Queryable, computerId: string, stepId: string): Promise<(StepRow & { log: string }) | undefined> {
    return (
      await db.query<StepRow & { log: string }>(`SELECT ${stepColumns}, log FROM computer_steps WHERE computer_id = $1 AND step_id = $2`, [computerId, stepId])
    )[0];
  },
};
