import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../core/db/db.js';
import { isEmail } from '../core/identity/email.js';
import { normalizeEmail, type IdentityService } from '../core/identity/service.js';
import { isUuid } from '../core/uuid.js';
import { checkLength, MAX_EXTERNAL_ID, MAX_NAME, ScimError } from './errors.js';
import { equalityFilter } from './filter.js';
import { patchUser, scimBoolean, type PatchOp, type UserDoc } from './patch.js';
import { scimStore as store, type ScimUserRow } from './store.js';

export interface ScimUsersDeps {
  db: Db;
  /** Adds, changes and removes the principals behind SCIM's users, with identity's rules. */
  identity: IdentityService;
  clock?: Clock;
}

/** The role a person provisioned by SCIM gets; owners change it in orgctl afterwards. */
const PROVISIONED_ROLE = 'member';

const userNotFound = (id: string) => new ScimError(404, `User ${id} not found.`);

/** The writable attributes of a POST or PUT body (RFC 7643 §4.1). */
export function userDocOf(body: Record<string, unknown>): UserDoc {
  const name = (body.name ?? {}) as Record<string, unknown>;
  const str = (v: unknown, what: string): string | null => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw new ScimError(400, `${what} must be a string.`, 'invalidValue');
    return v;
  };
  const userName = str(body.userName, 'userName');
  if (!userName) throw new ScimError(400, 'userName is required (the person’s email).', 'invalidValue');
  return {
    userName,
    externalId: str(body.externalId, 'externalId'),
    givenName: str(name.givenName, 'name.givenName'),
    familyName: str(name.familyName, 'name.familyName'),
    displayName: str(body.displayName, 'displayName'),
    active: body.active === undefined ? true : scimBoolean(body.active, 'active'),
  };
}

/** The list a GET /Users asks for: `startIndex` is 1-based, both already bounded by the route. */
export interface UserListQuery {
  /** The filter's text, and its test of a user (the route's, over the SCIM resource). */
  filter?: { text: string; test: (user: ScimUserRow) => boolean };
  startIndex: number;
  count: number;
}

/**
 * A filter no index answers is tested in the service against each user, read a chunk at a time
 * so that other requests run between chunks. At most this many users: a list costs about 30 µs
 * a user, so such a filter over a larger organization answers 400 tooMany instead of taking the
 * process for longer.
 */
const MAX_FILTERED_USERS = 10_000;
const SCAN_CHUNK = 500;

const docOf = (u: ScimUserRow): UserDoc => ({
  userName: u.user_name,
  externalId: u.external_id,
  givenName: u.given_name,
  familyName: u.family_name,
  displayName: u.display_name,
  active: u.active,
});

/** The principal's name: what the identity provider displays, else the person's names, else the email. */
const principalName = (d: UserDoc): string => d.displayName?.trim() || [d.givenName, d.familyName].filter(Boolean).join(' ').trim() || d.userName;

/**
 * SCIM's Users (docs/scim.md): each is a user of the organization, `userName` their email. A
 * deactivation (`active: false`) or a DELETE removes the person as `orgctl users remove` does:
 * keys and sessions end at once, analytics keeps their history. A deactivated user stays a
 * SCIM resource (`active: false`) until deleted, and a reactivation brings them back under the
 * same id, with the provisioned role.
 */
export class ScimUsers {
  private readonly db: Db;
  private readonly identity: IdentityService;
  private readonly clock: Clock;

  constructor({ db, identity, clock = systemClock }: ScimUsersDeps) {
    this.db = db;
    this.identity = identity;
    this.clock = clock;
  }

  /**
   * One page of users and how many the whole list holds. Without a filter the page and the
   * count are read in SQL (LIMIT/OFFSET, COUNT); the filters identity providers send before each
   * create (`userName eq`, `externalId eq`, `id eq`) by an index; any other filter by testing
   * every user, bounded by MAX_FILTERED_USERS.
   */
  async list(orgId: string, q: UserListQuery): Promise<{ users: ScimUserRow[]; total: number }> {
    if (q.filter === undefined) {
      const [total, users] = await Promise.all([
        store.countUsers(this.db, orgId),
        q.count === 0 ? [] : store.usersPage(this.db, orgId, q.startIndex - 1, q.count),
      ]);
      return { users, total };
    }
    const test = q.filter.test;
    const page: ScimUserRow[] = [];
    let total = 0;
    const take = (users: ScimUserRow[]) => {
      for (const user of users) {
        if (!test(user)) continue;
        total++;
        if (total >= q.startIndex && page.length < q.count) page.push(user);
      }
    };
    const found = await this.lookup(orgId, q.filter.text);
    if (found) take(found);
    else await this.scan(orgId, q.filter.text, take);
    return { users: page, total };
  }

  /** The users an equality filter on an indexed attribute can match, or undefined for any other filter. */
  private async lookup(orgId: string, filter: string): Promise<ScimUserRow[] | undefined> {
    const eq = equalityFilter(filter);
    if (eq?.attribute === 'username') {
      const user = await store.userByName(this.db, orgId, normalizeEmail(eq.value));
      return user ? [user] : [];
    }
    if (eq?.attribute === 'externalid') return store.usersByExternalId(this.db, orgId, eq.value);
    if (eq?.attribute === 'id') {
      const user = isUuid(eq.value) ? await store.user(this.db, orgId, eq.value.toLowerCase()) : undefined;
      return user ? [user] : [];
    }
    return undefined;
  }

  private async scan(orgId: string, filter: string, take: (users: ScimUserRow[]) => void): Promise<void> {
    if ((await store.countUsers(this.db, orgId)) > MAX_FILTERED_USERS)
      throw new ScimError(
        400,
        `The filter ${JSON.stringify(filter.slice(0, 200))} would be tested against every user, and this organization has more than ${MAX_FILTERED_USERS}. Filter by userName, externalId or id with eq, or page through the list without a filter.`,
        'tooMany',
      );
    for (let offset = 0; offset < MAX_FILTERED_USERS; offset += SCAN_CHUNK) {
      const chunk = await store.usersPage(this.db, orgId, offset, Math.min(SCAN_CHUNK, MAX_FILTERED_USERS - offset));
      take(chunk);
      if (chunk.length < SCAN_CHUNK) return;
    }
  }

  async get(orgId: string, id: string): Promise<ScimUserRow> {
    const user = isUuid(id) ? await store.user(this.db, orgId, id.toLowerCase()) : undefined;
    if (!user) throw userNotFound(id);
    return user;
  }

  async create(orgId: string, doc: UserDoc): Promise<ScimUserRow> {
    checkBounds(doc);
    const email = this.email(doc.userName);
    const id = await this.db.transaction(async () => {
      // A userName an inactive SCIM user holds is taken as much as an active user's.
      if (await store.userByName(this.db, orgId, email)) throw new ScimError(409, `A user with userName ${email} already exists.`, 'uniqueness');
      const created = doc.active ? await this.identity.addUser({ orgId, email, role: PROVISIONED_ROLE, name: principalName(doc) }) : { id: randomUUID() };
      await store.saveUser(this.db, orgId, created.id, { ...doc, userName: email }, this.clock.now());
      return created.id;
    });
    return this.get(orgId, id);
  }

  async replace(orgId: string, id: string, doc: UserDoc): Promise<ScimUserRow> {
    return this.apply(orgId, await this.get(orgId, id), doc);
  }

  async patch(orgId: string, id: string, ops: PatchOp[]): Promise<ScimUserRow> {
    const current = await this.get(orgId, id);
    return this.apply(orgId, current, patchUser(docOf(current), ops));
  }

  /** Removes the person (if still active) and forgets the SCIM resource: later reads answer 404. */
  async delete(orgId: string, id: string): Promise<void> {
    const current = await this.get(orgId, id);
    if (current.active) await this.identity.removeUser(orgId, current.user_name);
    await store.deleteUser(this.db, orgId, current.id);
  }

  private async apply(orgId: string, current: ScimUserRow, next: UserDoc): Promise<ScimUserRow> {
    checkBounds(next);
    const email = this.email(next.userName);
    const fields = { ...next, userName: email };
    await this.db.transaction(async () => {
      // Principals keep emails unique; this covers a deactivated user, who has none.
      const holder = email === current.user_name ? undefined : await store.userByName(this.db, orgId, email);
      if (holder && holder.id !== current.id) throw new ScimError(409, `A user with userName ${email} already exists.`, 'uniqueness');
      if (next.active && current.active) {
        await this.identity.updateUser(orgId, current.id, { email, name: principalName(next) });
      } else if (next.active && !current.active) {
        await this.identity.addUser({ id: current.id, orgId, email, role: PROVISIONED_ROLE, name: principalName(next) });
      }
      await store.saveUser(this.db, orgId, current.id, fields, this.clock.now());
    });
    // Removed after SCIM's row is saved, in its own transaction, so the credential cache is told
    // after the commit; should the removal be refused (the last owner), the person stays active.
    if (!next.active && current.active) await this.identity.removeUser(orgId, current.user_name);
    return this.get(orgId, current.id);
  }

  private email(userName: string): string {
    const email = normalizeEmail(userName);
    if (!isEmail(email)) throw new ScimError(400, `userName "${userName.slice(0, 200)}" is not an email address.`, 'invalidValue');
    return email;
  }
}

/** The bounds of what a user resource keeps, whichever of POST, PUT and PATCH wrote it. */
function checkBounds(doc: UserDoc): void {
  checkLength(doc.displayName, 'displayName', MAX_NAME);
  checkLength(doc.givenName, 'name.givenName', MAX_NAME);
  checkLength(doc.familyName, 'name.familyName', MAX_NAME);
  checkLength(doc.externalId, 'externalId', MAX_EXTERNAL_ID);
}
