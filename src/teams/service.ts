import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { errors } from '../core/http/errors.js';
import type { Principal } from '../core/identity/roles.js';
import type { IdentityService } from '../core/identity/service.js';
import type { Team } from './schemas.js';
import { teamHistory as history } from './history.js';
import { teamsStore as store, type MemberRow, type TeamRow } from './store.js';

export type TeamView = Static<typeof Team>;

/** Who acts on teams: the routes pass the caller, SCIM its organization (the token has no principal). */
type Actor = Pick<Principal, 'orgId'>;

export interface TeamBudget {
  id: string;
  name: string;
  budget: number;
  memberIds: string[];
}

export interface TeamsDeps {
  db: Db;
  /** Tells which ids are users of the organization. */
  identity: IdentityService;
  /** The times teams are created, changed and deleted at; by default the system's. */
  clock?: Clock;
}

const teamNotFound = () => errors.notFound('Team', 'team_not_found');

function view(team: TeamRow, members: MemberRow[]): TeamView {
  return {
    id: team.id,
    name: team.name,
    monthlyBudget: team.monthly_budget_credits,
    members: members.filter((m) => m.team_id === team.id).map((m) => ({ id: m.id, email: m.email, name: m.name, role: m.role })),
    createdAt: team.created_at.getTime(),
    updatedAt: team.updated_at.getTime(),
  };
}

/**
 * Teams of an organization and their members (docs/teams.md). Who may call what is the routes'
 * access; the rules here are the organization's: a member is a user of the organization, a name
 * is unique among the teams not deleted, and a deleted team is kept (its name and members) for
 * the history, out of every answer.
 */
export class TeamsService {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly clock: Clock;

  constructor({ db, identity, clock = systemClock }: TeamsDeps) {
    this.db = db;
    this.identity = identity;
    this.clock = clock;
  }

  async list(orgId: string): Promise<TeamView[]> {
    const teams = await store.list(this.db, orgId);
    const members = await store.members(
      this.db,
      teams.map((t) => t.id),
    );
    return teams.map((t) => view(t, members));
  }

  /** `count` teams of `list` from the `offset`-th on, with their members, and how many teams there are in all. */
  async page(orgId: string, offset: number, count: number): Promise<{ teams: TeamView[]; total: number }> {
    const [total, teams] = await Promise.all([store.count(this.db, orgId), count === 0 ? [] : store.page(this.db, orgId, offset, count)]);
    const members = await store.members(
      this.db,
      teams.map((t) => t.id),
    );
    return { teams: teams.map((t) => view(t, members)), total };
  }

  async get(orgId: string, teamId: string): Promise<TeamView> {
    const team = await store.find(this.db, orgId, teamId);
    if (!team) throw teamNotFound();
    return view(team, await store.members(this.db, [team.id]));
  }

  /** `managedBy: 'scim'` marks a team SCIM created: only SCIM renames it (docs/scim.md). */
  async create(actor: Actor, body: { name: string; userIds?: string[] }, o: { managedBy?: 'scim' } = {}): Promise<TeamView> {
    const id = randomUUID();
    const userIds = (body.userIds ?? []).map((u) => u.toLowerCase());
    // Statements made through this.db inside the transaction join it (docs/architecture.md).
    await this.db.transaction(async () => {
      await this.requireUsers(actor.orgId, userIds);
      const now = this.clock.now();
      await store.insert(this.db, { id, orgId: actor.orgId, name: body.name, managedBy: o.managedBy ?? null }, now);
      await history.named(this.db, id, body.name, now);
      await history.joined(this.db, actor.orgId, id, await store.addMembers(this.db, id, userIds, now), now);
    });
    return this.get(actor.orgId, id);
  }

  /** A team SCIM created keeps the name the identity provider gives it: only SCIM (`by: 'scim'`) renames it. */
  async rename(actor: Actor, teamId: string, name: string, o: { by?: 'scim' } = {}): Promise<TeamView> {
    await this.db.transaction(async () => {
      const team = await this.lockTeam(actor.orgId, teamId);
      if (team.managed_by === 'scim' && o.by !== 'scim' && team.name !== name)
        throw errors.conflict('team_managed_by_scim', `The team "${team.name}" is provisioned by SCIM; rename it in the identity provider.`);
      if (team.name === name) return;
      const now = this.clock.now();
      await store.rename(this.db, team.id, name, now);
      await history.named(this.db, team.id, name, now);
    });
    return this.get(actor.orgId, teamId);
  }

  /** Deletes the team: it leaves every list and answer, and its name is free again. */
  async delete(actor: Actor, teamId: string): Promise<void> {
    await this.db.transaction(async () => {
      const now = this.clock.now();
      if (!(await store.softDelete(this.db, actor.orgId, teamId, now))) throw teamNotFound();
      // Its members stay in team_members for the record; in analytics they belong to it until today.
      await history.left(this.db, teamId, null, now);
    });
  }

  /** Makes `userIds` the team's members, all of them or (when one is no user of the organization) none. */
  async setMembers(actor: Actor, teamId: string, ids: string[]): Promise<TeamView> {
    const userIds = ids.map((u) => u.toLowerCase());
    await this.db.transaction(async () => {
      const team = await this.lockTeam(actor.orgId, teamId);
      await this.requireUsers(actor.orgId, userIds);
      const now = this.clock.now();
      const removed = await store.removeMembersExcept(this.db, team.id, userIds);
      const added = await store.addMembers(this.db, team.id, userIds, now);
      await history.left(this.db, team.id, removed, now);
      await history.joined(this.db, actor.orgId, team.id, added, now);
      // updatedAt says when the members last changed, not when someone last asked.
      if (removed.length + added.length > 0) await store.touch(this.db, team.id, now);
    });
    return this.get(actor.orgId, teamId);
  }

  /** Adds one user; adding a member again changes nothing. */
  async addMember(actor: Actor, teamId: string, userId: string): Promise<TeamView> {
    await this.db.transaction(async () => {
      const team = await this.lockTeam(actor.orgId, teamId);
      await this.requireUser(actor.orgId, userId);
      const now = this.clock.now();
      const added = await store.addMembers(this.db, team.id, [userId.toLowerCase()], now);
      if (added.length === 0) return;
      await history.joined(this.db, actor.orgId, team.id, added, now);
      await store.touch(this.db, team.id, now);
    });
    return this.get(actor.orgId, teamId);
  }

  /** Removes one user; removing a user who is not in the team changes nothing. */
  async removeMember(actor: Actor, teamId: string, userId: string): Promise<TeamView> {
    await this.db.transaction(async () => {
      const team = await this.lockTeam(actor.orgId, teamId);
      await this.requireUser(actor.orgId, userId);
      const removed = await store.removeMember(this.db, team.id, userId.toLowerCase());
      if (removed.length === 0) return;
      const now = this.clock.now();
      await history.left(this.db, team.id, removed, now);
      await store.touch(this.db, team.id, now);
    });
    return this.get(actor.orgId, teamId);
  }

  /**
   * Single sign-on's team mapping: of the teams in `managed` (those the mapping names), the user is
   * put in those of `wanted` and taken out of the rest; other teams are left alone. Deleted or
   * unknown teams are skipped. Returns the names of the teams joined and left.
   */
  async syncMapped(orgId: string, userId: string, wanted: ReadonlySet<string>, managed: ReadonlySet<string>): Promise<{ joined: string[]; left: string[] }> {
    const joined: string[] = [];
    const left: string[] = [];
    const now = this.clock.now();
    for (const teamId of managed) {
      const team = await store.find(this.db, orgId, teamId, { lock: true });
      if (!team) continue;
      const joining = wanted.has(teamId);
      const changed = joining ? await store.addMembers(this.db, team.id, [userId], now) : await store.removeMember(this.db, team.id, userId);
      if (changed.length > 0) {
        // Analytics by team counts the person in the team from today (or no longer after today).
        if (joining) await history.joined(this.db, orgId, team.id, changed, now);
        else await history.left(this.db, team.id, changed, now);
        await store.touch(this.db, team.id, now);
        (wanted.has(teamId) ? joined : left).push(team.name);
      }
    }
    return { joined, left };
  }

  /**
   * A team's monthly budget, locked until the caller's transaction ends, so concurrent changes are
   * audited in order (the limits service sets and audits budgets, as it does limits).
   */
  async lockBudget(orgId: string, teamId: string): Promise<{ id: string; name: string; budget: number | null }> {
    const team = await this.lockTeam(orgId, teamId);
    return { id: team.id, name: team.name, budget: team.monthly_budget_credits };
  }

  /** In the caller's transaction, after lockBudget. */
  async setBudget(teamId: string, budget: number | null): Promise<void> {
    await store.setBudget(this.db, teamId, budget, this.clock.now());
  }

  /**
   * The teams with a budget (with `memberOf`, those this user belongs to), each with its members:
   * their use counts against the budget.
   */
  async budgets(orgId: string, memberOf?: string): Promise<TeamBudget[]> {
    const rows = await store.budgets(this.db, orgId, memberOf);
    return rows.map((r) => ({ id: r.id, name: r.name, budget: r.budget, memberIds: r.member_ids }));
  }

  private async lockTeam(orgId: string, teamId: string): Promise<TeamRow> {
    const team = await store.find(this.db, orgId, teamId, { lock: true });
    if (!team) throw teamNotFound();
    return team;
  }

  /** A user named in the path: one of no user of the organization is not found. */
  private async requireUser(orgId: string, userId: string): Promise<void> {
    if (!(await this.identity.userIdsAmong(orgId, [userId.toLowerCase()])).size) throw errors.notFound('User', 'user_not_found');
  }

  /** Users named in a body: each one that is no user of the organization is a 400 at its place in the list. */
  private async requireUsers(orgId: string, userIds: string[]): Promise<void> {
    const known = await this.identity.userIdsAmong(orgId, userIds);
    const items = userIds.flatMap((id, i) => (known.has(id) ? [] : [{ path: `/userIds/${i}`, message: 'is not a user of the organization' }]));
    if (items.length) throw errors.invalid(items);
  }
}
