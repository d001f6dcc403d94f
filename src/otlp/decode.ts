import { errors } from '../core/http/errors.js';
import { decodeMessage, messages } from './proto.js';
import { logRecords, metricPoints, spans, ValueTooDeepError, type LogRecordIn, type MetricPoints, type Origin, type SpanIn } from './records.js';
import { logRecordsFromWire } from './wire/logs.js';
import { metricPointsFromWire } from './wire/metrics.js';

export type Signal = 'metrics' | 'logs' | 'traces';

/** The records of an export, per signal. */
export interface Records {
  metrics: MetricPoints;
  logs: LogRecordIn[];
  traces: SpanIn[];
}

// Protobuf metrics and logs are read from the wire (wire/); spans, from the decoded message.
const FROM_PROTOBUF: { [S in Signal]: (bytes: Uint8Array) => Records[S] } = {
  metrics: metricPointsFromWire,
  logs: logRecordsFromWire,
  traces: (bytes) => spans(decodeMessage(messages.tracesRequest, bytes)),
};
const FROM_JSON: { [S in Signal]: (body: Record<string, unknown>) => Records[S] } = { metrics: metricPoints, logs: logRecords, traces: spans };

const REQUEST = { metrics: 'ExportMetricsServiceRequest', logs: 'ExportLogsServiceRequest', traces: 'ExportTraceServiceRequest' } as const;

/**
 * The records of an export body (already inflated), protobuf or JSON. Pure: it runs on the event
 * loop for small bodies and in a decoding thread for large ones (decoder.ts). A body that cannot
 * be read is a 400, which exporters drop rather than retry.
 */
export function decodeExport<S extends Signal>(signal: S, protobuf: boolean, body: Buffer): Records[S] {
  if (protobuf) {
    try {
      return FROM_PROTOBUF[signal](body);
    } catch (e) {
      throw errors.badRequest(`The body is not a protobuf ${REQUEST[signal]}: ${(e as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw errors.badRequest('The body is not JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw errors.badRequest('The body must be a JSON object (an OTLP export request).');
  try {
    return FROM_JSON[signal](parsed as Record<string, unknown>);
  } catch (e) {
    // Malformed like protobuf nested past its limit: 400, not the 503 of an unexpected failure.
    if (e instanceof ValueTooDeepError) throw errors.badRequest(e.message);
    throw e;
  }
}

const recordsOf = <S extends Signal>(signal: S, records: Records[S]): Origin[] =>
  signal === 'metrics' ? (records as MetricPoints).points : (records as LogRecordIn[] | SpanIn[]);

/**
 * Records made ready to cross to another thread. Every record of one resource shares its resource
 * object and its JSON; a structured clone keeps the shared object once but would copy the string
 * per record (a 19 MiB export of small records would cross as hundreds of MiB). So each string
 * crosses once, beside its resource, and `unpack` puts it back.
 */
export function pack<S extends Signal>(signal: S, records: Records[S]): { records: Records[S]; resourceJson: [Origin['resource'], string][] } {
  const jsons = new Map<Origin['resource'], string>();
  for (const r of recordsOf(signal, records)) {
    jsons.set(r.resource, r.resourceJson);
    r.resourceJson = '';
  }
  return { records, resourceJson: [...jsons] };
}

export function unpack<S extends Signal>(signal: S, packed: { records: Records[S]; resourceJson: [Origin['resource'], string][] }): Records[S] {
  const jsons = new Map(packed.resourceJson);
  for (const r of recordsOf(signal, packed.records)) r.resourceJson = jsons.get(r.resource) ?? '';
  return packed.records;
}
