import { patchPath, type PatchPath } from './filter.js';
import { ScimError } from './errors.js';

/** The attributes of a user that SCIM writes (the rest of a User resource is derived or ignored). */
export interface UserDoc {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean;
}

export interface GroupDoc {
  displayName: string;
  externalId: string | null;
  members: string[];
}

export interface PatchOp {
  op: string;
  path?: string;
  value?: unknown;
}

const invalid = (detail: string) => new ScimError(400, detail, 'invalidValue');

/**
 * The most operations one PATCH may carry (ServiceProviderConfig's `patch.maxOperations`). As
 * RFC 7644 §3.7.4 answers a bulk request past its `maxOperations`, a longer PATCH is refused
 * whole with 413 (a client then splits it), before any of it is applied.
 */
export const MAX_OPERATIONS = 1000;

function checkOperationCount(ops: PatchOp[]): void {
  if (ops.length > MAX_OPERATIONS)
    throw new ScimError(413, `A PATCH may carry at most ${MAX_OPERATIONS} operations; this one has ${ops.length}. Send the rest in another PATCH.`);
}

/** Entra ID sends booleans as the strings "True" and "False". */
export function scimBoolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalid(`${what} must be true or false.`);
}

function text(value: unknown, what: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw invalid(`${what} must be a string.`);
  return value;
}

function kindOf(op: string): 'add' | 'replace' | 'remove' {
  const kind = op.toLowerCase();
  if (kind === 'add' || kind === 'replace' || kind === 'remove') return kind;
  throw new ScimError(400, `The PATCH operation "${op}" is not add, replace or remove.`, 'invalidSyntax');
}

/**
 * An operation without a path carries an object of attributes (Okta: `{active: false}`; Entra:
 * keys that are themselves paths, such as `name.givenName` or `emails[type eq "work"].value`);
 * each key is applied as its own path.
 */
function expand(op: PatchOp): { kind: 'add' | 'replace' | 'remove'; path: string; value: unknown }[] {
  const kind = kindOf(op.op);
  if (op.path !== undefined && op.path !== '') return [{ kind, path: op.path, value: op.value }];
  if (kind === 'remove') throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
  if (op.value === null || typeof op.value !== 'object' || Array.isArray(op.value)) throw invalid('An operation without a path needs an object value.');
  return Object.entries(op.value as Record<string, unknown>).map(([path, value]) => ({ kind, path, value }));
}

function applyUserOne(doc: UserDoc, kind: 'add' | 'replace' | 'remove', path: string, value: unknown): void {
  const p = patchPath(path);
  const v = kind === 'remove' ? null : value;
  switch (p.attribute) {
    case 'username':
      if (v === null) throw invalid('userName is required and cannot be removed.');
      doc.userName = text(v, 'userName') as string;
      return;
    case 'externalid':
      doc.externalId = text(v, 'externalId');
      return;
    case 'displayname':
      doc.displayName = text(v, 'displayName');
      return;
    case 'active':
      doc.active = v === null ? false : scimBoolean(v, 'active');
      return;
    case 'name': {
      if (p.sub === 'givenname') doc.givenName = text(v, 'name.givenName');
      else if (p.sub === 'familyname') doc.familyName = text(v, 'name.familyName');
      else if (p.sub === undefined) {
        const name = (v ?? {}) as Record<string, unknown>;
        if (typeof name !== 'object') throw invalid('name must be an object.');
        const key = (k: string) => Object.keys(name).find((n) => n.toLowerCase() === k);
        const given = key('givenname');
        const family = key('familyname');
        if (kind !== 'add' || given) doc.givenName = given ? text(name[given], 'name.givenName') : null;
        if (kind !== 'add' || family) doc.familyName = family ? text(name[family], 'name.familyName') : null;
      }
      return;
    }
    default:
      // Attributes this service does not keep (emails, which follow userName; phone numbers;
      // the enterprise extension) are accepted and ignored, so an identity provider's default
      // mapping provisions without errors (docs/scim.md, Attribute mapping).
      return;
  }
}

/** The user after a PATCH's operations, applied in order (RFC 7644 §3.5.2); the input is not changed. */
export function patchUser(doc: UserDoc, ops: PatchOp[]): UserDoc {
  checkOperationCount(ops);
  const next = { ...doc };
  for (const op of ops) for (const one of expand(op)) applyUserOne(next, one.kind, one.path, one.value);
  return next;
}

/** The ids of a members value: `[{value: id}]` (a single object is taken as a list of one). */
function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map((m) => {
    const id = m !== null && typeof m === 'object' ? (m as Record<string, unknown>).value : undefined;
    if (typeof id !== 'string') throw invalid('Each member must be an object with a string value (the user id).');
    return id.toLowerCase();
  });
}

/** The group as a PATCH changes it: members indexed once, in their order, so each operation costs its own size. */
interface GroupDraft {
  displayName: string;
  externalId: string | null;
  members: Set<string>;
  /** How many member tests filters other than `value eq` may still make in this PATCH. */
  testsLeft: number;
}

/**
 * A member filter other than `value eq "…"` is tested against each member, about 1 µs a test
 * (a million took 1.1 s): 100,000 tests (100 such operations over a team of 1,000) hold the
 * process a tenth of a second, so a PATCH may make no more.
 */
const MAX_MEMBER_TESTS = 100_000;

/** The members a value filter selects: `value eq "id"` by the index, any other filter by testing each member (bounded). */
function selectMembers(doc: GroupDraft, p: PatchPath, path: string): string[] {
  if (p.equals?.attribute === 'value') return doc.members.has(p.equals.value) ? [p.equals.value] : [];
  doc.testsLeft -= doc.members.size;
  if (doc.testsLeft < 0)
    throw new ScimError(
      400,
      `Member filters other than value eq "…" are tested against every member, at most ${MAX_MEMBER_TESTS} tests a PATCH; ${path} would pass that. Select members by value eq, or send a value list.`,
      'tooMany',
    );
  const where = p.where!;
  return [...doc.members].filter((id) => where({ value: id }));
}

function applyGroupOne(doc: GroupDraft, kind: 'add' | 'replace' | 'remove', path: string, value: unknown): void {
  const p = patchPath(path);
  switch (p.attribute) {
    case 'displayname':
      if (kind === 'remove') throw invalid('displayName is required and cannot be removed.');
      doc.displayName = text(value, 'displayName') as string;
      return;
    case 'externalid':
      doc.externalId = kind === 'remove' ? null : text(value, 'externalId');
      return;
    case 'members': {
      if (p.where) {
        // `members[value eq "id"]`: the members the filter selects.
        const selected = selectMembers(doc, p, path);
        if (kind === 'remove') for (const id of selected) doc.members.delete(id);
        else if (selected.length === 0 && kind === 'replace') throw new ScimError(400, `No member matches ${path}.`, 'noTarget');
        return;
      }
      const ids = memberIds(value);
      if (kind === 'replace') doc.members.clear();
      // Entra ID removes members with a value list; without one, every member goes.
      if (kind === 'remove' && (value === undefined || value === null)) doc.members.clear();
      for (const id of ids) {
        if (kind === 'remove') doc.members.delete(id);
        else doc.members.add(id);
      }
      return;
    }
    default:
      // id, schemas and meta arrive in Okta's value objects; they are not changed by a PATCH.
      return;
  }
}

/**
 * The group after a PATCH's operations, applied in order; the input is not changed. Linear in
 * the operations and the members: a member is found by an index, not by testing each one.
 */
export function patchGroup(doc: GroupDoc, ops: PatchOp[]): GroupDoc {
  checkOperationCount(ops);
  const next: GroupDraft = { displayName: doc.displayName, externalId: doc.externalId, members: new Set(doc.members), testsLeft: MAX_MEMBER_TESTS };
  for (const op of ops) for (const one of expand(op)) applyGroupOne(next, one.kind, one.path, one.value);
  return { displayName: next.displayName, externalId: next.externalId, members: [...next.members] };
}
