import type { Db } from '../core/db/db.js';
import { AppError } from '../core/http/errors.js';
import { isUuid } from '../core/uuid.js';
import { TeamName } from '../teams/schemas.js';
import type { TeamsService, TeamView } from '../teams/service.js';
import { compiledOnUse, jsonAjv } from '../core/validation/ajv.js';
import { checkLength, MAX_EXTERNAL_ID, ScimError } from './errors.js';
import { patchGroup, type GroupDoc, type PatchOp } from './patch.js';
import type { GroupRow } from './resources.js';
import { scimStore as store } from './store.js';

export interface ScimGroupsDeps {
  db: Db;
  /** SCIM groups are teams: every change goes through the teams service and its rules. */
  teams: TeamsService;
}

const groupNotFound = (id: string) => new ScimError(404, `Group ${id} not found.`);

/** The writable attributes of a POST or PUT body (RFC 7643 §4.2). */
export function groupDocOf(body: Record<string, unknown>): GroupDoc {
  if (typeof body.displayName !== 'string' || body.displayName.trim() === '') throw new ScimError(400, 'displayName is required.', 'invalidValue');
  if (body.externalId !== undefined && body.externalId !== null && typeof body.externalId !== 'string')
    throw new ScimError(400, 'externalId must be a string.', 'invalidValue');
  return patchGroup({ displayName: body.displayName, externalId: (body.externalId as string | null | undefined) ?? null, members: [] }, [
    { op: 'add', path: 'members', value: body.members ?? [] },
  ]);
}

/**
 * SCIM's Groups (docs/scim.md) are the organization's teams; a team SCIM creates is marked so
 * that only SCIM renames it. Members are users by their SCIM id (their user id); a deactivated
 * user, who is no member of anything while deactivated, is left out of a membership change
 * rather than refusing it, since identity providers keep them in their groups.
 */
export class ScimGroups {
  private readonly db: Db;
  private readonly teams: TeamsService;

  constructor({ db, teams }: ScimGroupsDeps) {
    this.db = db;
    this.teams = teams;
  }

  async list(orgId: string): Promise<GroupRow[]> {
    const [teams, scim] = await Promise.all([this.teams.list(orgId), store.groups(this.db, orgId)]);
    return teams.map((t) => row(t, scim.get(t.id)?.external_id ?? null));
  }

  /** `count` groups of `list` from the `startIndex`-th (1-based) on, and how many there are in all: read in SQL, not whole. */
  async page(orgId: string, startIndex: number, count: number): Promise<{ groups: GroupRow[]; total: number }> {
    const { teams, total } = await this.teams.page(orgId, startIndex - 1, count);
    const scim = await store.groupsOf(
      this.db,
      orgId,
      teams.map((t) => t.id),
    );
    return { groups: teams.map((t) => row(t, scim.get(t.id)?.external_id ?? null)), total };
  }

  async get(orgId: string, id: string): Promise<GroupRow> {
    if (!isUuid(id)) throw groupNotFound(id);
    const team = await this.teams.get(orgId, id.toLowerCase()).catch(notFoundAs(id));
    return row(team, (await store.groups(this.db, orgId)).get(team.id)?.external_id ?? null);
  }

  async create(orgId: string, doc: GroupDoc): Promise<GroupRow> {
    checkGroup(doc);
    const id = await this.db.transaction(async () => {
      const members = await this.memberIds(orgId, doc.members);
      const team = await this.teams.create({ orgId }, { name: doc.displayName, userIds: members }, { managedBy: 'scim' });
      await store.saveGroup(this.db, orgId, team.id, doc.externalId);
      return team.id;
    });
    return this.get(orgId, id);
  }

  async replace(orgId: string, id: string, doc: GroupDoc): Promise<GroupRow> {
    return this.apply(orgId, await this.get(orgId, id), doc);
  }

  async patch(orgId: string, id: string, ops: PatchOp[]): Promise<GroupRow> {
    const current = await this.get(orgId, id);
    const doc = { displayName: current.name, externalId: current.externalId, members: current.members.map((m) => m.id) };
    return this.apply(orgId, current, patchGroup(doc, ops));
  }

  async delete(orgId: string, id: string): Promise<void> {
    const current = await this.get(orgId, id);
    await this.teams.delete({ orgId }, current.id);
  }

  private async apply(orgId: string, current: GroupRow, next: GroupDoc): Promise<GroupRow> {
    checkGroup(next);
    await this.db.transaction(async () => {
      const actor = { orgId };
      if (next.displayName !== current.name) await this.teams.rename(actor, current.id, next.displayName, { by: 'scim' });
      const members = await this.memberIds(orgId, next.members);
      const before = current.members.map((m) => m.id).sort();
      if (members.length !== before.length || [...members].sort().some((m, i) => m !== before[i])) await this.teams.setMembers(actor, current.id, members);
      await store.saveGroup(this.db, orgId, current.id, next.externalId);
    });
    return this.get(orgId, current.id);
  }

  /** The members to set: ids must be user ids; deactivated users are left out (see the class). */
  private async memberIds(orgId: string, ids: string[]): Promise<string[]> {
    const bad = ids.find((id) => !isUuid(id));
    if (bad !== undefined) throw new ScimError(400, `Member "${bad.slice(0, 100)}" is not a user id of this organization.`, 'invalidValue');
    const inactive = await store.inactiveUserIds(this.db, orgId, ids);
    return ids.filter((id) => !inactive.has(id));
  }
}

/** A team's name rule (docs/teams.md): the schema the teams API checks its callers' names with. */
const validTeamName = compiledOnUse(jsonAjv, TeamName);

function checkGroup(doc: GroupDoc): void {
  if (!validTeamName()(doc.displayName))
    throw new ScimError(400, 'displayName must be 1 to 100 characters, without control characters or a leading or trailing space.', 'invalidValue');
  checkLength(doc.externalId, 'externalId', MAX_EXTERNAL_ID);
}

function row(team: TeamView, externalId: string | null): GroupRow {
  return {
    id: team.id,
    name: team.name,
    externalId,
    members: team.members.map((m) => ({ id: m.id, email: m.email })),
    createdAt: team.createdAt,
    updatedAt: team.updatedAt,
  };
}

const notFoundAs =
  (id: string) =>
  (e: unknown): never => {
    if (e instanceof AppError && e.status === 404) throw groupNotFound(id);
    throw e;
  };
