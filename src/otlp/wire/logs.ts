import { messages } from '../proto.js';
import { logEventName, type Attrs, type LogRecordIn } from '../records.js';
import { enter, F, field, fixed64, I64, LEN, leave, readText, T, VARINT, type Reader } from './primitives.js';
import { attrValue, readAny, readAttribute, readExport, type AnyState, type Layout } from './values.js';

/** Logs exports read from the wire (primitives.ts). */

const LOGS: Layout = {
  resources: field(messages.logsRequest, 'resourceLogs'),
  resource: field(T.resourceLogs, 'resource'),
  scopes: field(T.resourceLogs, 'scopeLogs'),
  scope: field(T.scopeLogs, 'scope'),
  items: field(T.scopeLogs, 'logRecords'),
};

interface RawLog {
  attrs: Attrs;
  body: AnyState | undefined;
  eventName: string;
  timeNs: bigint;
  observedNs: bigint;
}

function readLog(r: Reader, depth: number): RawLog {
  const l: RawLog = { attrs: {}, body: undefined, eventName: '', timeNs: 0n, observedNs: 0n };
  const outer = enter(r, depth);
  while (r.pos < r.len) {
    const tag = r.tag();
    const f = tag >>> 3;
    const w = tag & 7;
    if (f === F.logAttrs && w === LEN) readAttribute(r, depth + 1, l.attrs);
    else if (f === F.logTime && w === I64) l.timeNs = fixed64(r);
    else if (f === F.logObserved && w === I64) l.observedNs = fixed64(r);
    else if (f === F.logEventName && w === LEN) l.eventName = readText(r);
    else if (f === F.logBody && w === LEN) readAny(r, depth + 1, (l.body ??= { member: 0, value: undefined }));
    // Read to be refused where protobufjs refuses them (a string must be valid UTF-8).
    else if (f === F.logSeverity && w === VARINT) r.int32();
    else if (f === F.logSeverityText && w === LEN) r.stringVerify();
    else r.skipType(w, depth, f);
  }
  leave(r, outer);
  return l;
}

/** Every log record of a protobuf logs export, as records.ts's logRecords reads the decoded message. */
export function logRecordsFromWire(bytes: Uint8Array): LogRecordIn[] {
  const out: LogRecordIn[] = [];
  for (const { resource, resourceJson, scopes } of readExport(bytes, LOGS, readLog)) {
    for (const scope of scopes) {
      for (const l of scope.items) {
        const body = attrValue(l.body);
        const name = logEventName(l.eventName, l.attrs, body);
        out.push({ resource, resourceJson, scope: scope.name, name, attrs: l.attrs, timeNs: l.timeNs || l.observedNs || 0n });
      }
    }
  }
  return out;
}
