import { toBigInt, type Attrs, type AttrValue } from '../records.js';
import { enter, F, I64, LEN, leave, Reader, readKey, readText, SAFE_HIGH, VARINT } from './primitives.js';

/**
 * AnyValues and attributes read from the wire (as records.ts's anyValue and attrs read the
 * decoded message), and an export's resources and scopes, whose items metrics.ts and logs.ts read.
 */

/** An AnyValue being read: its oneof member (0 none) and value; array and kvlist values grow in place when merged. */
export interface AnyState {
  member: number;
  value: unknown;
}

export function readAny(r: Reader, depth: number, s: AnyState): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.string && w === LEN) set(s, f, readText(r));
    else if (f === F.bool && w === VARINT) set(s, f, r.bool());
    else if (f === F.int && w === VARINT) set(s, f, r.int64());
    else if (f === F.double && w === I64) set(s, f, r.double());
    else if (f === F.bytes && w === LEN) set(s, f, r.bytes());
    else if (f === F.array && w === LEN)
      readList(
        r,
        depth + 1,
        member(s, f, () => [] as AnyState[]),
      );
    else if (f === F.kvlist && w === LEN)
      readKvList(
        r,
        depth + 1,
        member(s, f, () => [] as KeyValue[]),
      );
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
}

const set = (s: AnyState, member: number, value: unknown) => {
  s.member = member;
  s.value = value;
};
/** The value of a message member, merged into when it is already the member set. */
function member<V>(s: AnyState, f: number, make: () => V): V {
  if (s.member !== f) set(s, f, make());
  return s.value as V;
}

function readList(r: Reader, depth: number, values: AnyState[]): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === F.listValues && (tag & 7) === LEN) {
      const s: AnyState = { member: 0, value: undefined };
      readAny(r, depth + 1, s);
      values.push(s);
    } else r.skipType(tag & 7, depth, tag >>> 3);
  }
  leave(r, outer);
}

interface KeyValue {
  key: string;
  value: AnyState;
}

function readKvList(r: Reader, depth: number, list: KeyValue[]): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === F.kvValues && (tag & 7) === LEN) list.push(readKeyValue(r, depth + 1));
    else r.skipType(tag & 7, depth, tag >>> 3);
  }
  leave(r, outer);
}

export function readKeyValue(r: Reader, depth: number): KeyValue {
  const value: AnyState = { member: 0, value: undefined };
  return { key: readKeyValueInto(r, depth, value), value };
}

/** A KeyValue's key; its value is read into `value` (merged into it when the field comes again). */
function readKeyValueInto(r: Reader, depth: number, value: AnyState): string {
  let key = '';
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.key && w === LEN) key = readKey(r);
    else if (f === F.value && w === LEN) readAny(r, depth + 1, value);
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return key;
}

/** What records.ts's anyValue makes of the same AnyValue. */
export function attrValue(s: AnyState | undefined): AttrValue {
  if (s === undefined) return null;
  switch (s.member) {
    case F.string:
      return s.value as string;
    case F.bool:
      return s.value as boolean;
    case F.int: {
      // Mostly well within the safe integers: then the halves make the number exactly.
      const long = s.value as { low: number; high: number };
      if (long.high > -SAFE_HIGH && long.high < SAFE_HIGH) return long.high * 2 ** 32 + (long.low >>> 0);
      const n = toBigInt(s.value) as bigint;
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
    }
    case F.double:
      return s.value as number;
    case F.array:
      return (s.value as AnyState[]).map(attrValue);
    case F.kvlist:
      return attrsOf(s.value as KeyValue[]);
    case F.bytes: {
      const b = s.value as Uint8Array;
      return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
    }
    default:
      return null;
  }
}

function attrsOf(list: readonly KeyValue[]): Attrs {
  const out: Attrs = {};
  for (const kv of list) out[kv.key] = attrValue(kv.value);
  return out;
}

/**
 * A repeated KeyValue field's element, added to the attributes being read (later keys win, as in
 * records.ts). Its value is read into one state reused from attribute to attribute (made into a
 * plain value before the next is read): most attributes cost no object.
 */
export function readAttribute(r: Reader, depth: number, out: Attrs): void {
  scratch.member = 0;
  scratch.value = undefined;
  const key = readKeyValueInto(r, depth, scratch);
  out[key] = attrValue(scratch);
}
const scratch: AnyState = { member: 0, value: undefined };

/** A Resource's attributes, merged into `out` (a repeated resource field merges). */
function readResource(r: Reader, depth: number, out: Attrs): void {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === F.resourceAttrs && (tag & 7) === LEN) readAttribute(r, depth + 1, out);
    else r.skipType(tag & 7, depth, tag >>> 3);
  }
  leave(r, outer);
}

/**
 * An InstrumentationScope's name, or `name` when it has none (merged: a later empty name clears
 * it). Its version and attributes are read only to be refused where protobufjs refuses them.
 */
function readScopeName(r: Reader, depth: number, name: string): string {
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.scopeName && w === LEN) name = r.stringVerify();
    else if (f === F.scopeVersion && w === LEN) r.stringVerify();
    else if (f === F.scopeAttrs && w === LEN) readKeyValue(r, depth + 1);
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return name;
}

/** Where an export keeps its resources, a resource its resource and scopes, a scope its scope and items. */
export interface Layout {
  resources: number;
  resource: number;
  scopes: number;
  scope: number;
  items: number;
}

/** A resource of an export: its attributes (and their JSON, for record ids) and each scope's name and items. */
interface ResourceOf<T> {
  resource: Attrs;
  resourceJson: string;
  scopes: { name: string; items: T[] }[];
}

/**
 * The resources of an export (ExportMetricsServiceRequest, ExportLogsServiceRequest), each scope's
 * items read by `item`. Items are returned with their resource and scope once the resource is
 * read whole: its fields may come in any order.
 */
export function readExport<T>(bytes: Uint8Array, layout: Layout, item: (r: Reader, depth: number) => T): ResourceOf<T>[] {
  const out: ResourceOf<T>[] = [];
  // Over a Buffer (a view of the same bytes), which readText slices.
  const r = Reader.create(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag >>> 3 === layout.resources && (tag & 7) === LEN) out.push(readResourceOf(r, 1, layout, item));
    else r.skipType(tag & 7, 0, tag >>> 3);
  }
  return out;
}

function readResourceOf<T>(r: Reader, depth: number, layout: Layout, item: (r: Reader, depth: number) => T): ResourceOf<T> {
  const resource: Attrs = {};
  const scopes: { name: string; items: T[] }[] = [];
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === layout.resource && w === LEN) readResource(r, depth + 1, resource);
    else if (f === layout.scopes && w === LEN) {
      const scope = { name: '', items: [] as T[] };
      const inner = enter(r, depth + 1);
      while (r.pos < r.len) {
        const t = r.tag();
        if (t >>> 3 === layout.scope && (t & 7) === LEN) scope.name = readScopeName(r, depth + 2, scope.name);
        else if (t >>> 3 === layout.items && (t & 7) === LEN) scope.items.push(item(r, depth + 2));
        else r.skipType(t & 7, depth + 1, t >>> 3);
      }
      leave(r, inner);
      scopes.push(scope);
    } else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return { resource, resourceJson: JSON.stringify(resource), scopes };
}
