import protobuf from 'protobufjs';

/**
 * The OTLP messages orgctl reads, written from the field numbers of opentelemetry-proto v1
 * (common, resource, metrics, logs, trace, collector) and google.rpc.Status. Fields orgctl does
 * not read (exemplars, links, events, buckets) are left out: the decoder skips unknown fields.
 */
const PROTO = `
syntax = "proto3";
package otlp;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; }
message Resource { repeated KeyValue attributes = 1; }

message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
message ResourceMetrics { Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; }
message ScopeMetrics { InstrumentationScope scope = 1; repeated Metric metrics = 2; }
message Metric {
  string name = 1;
  string unit = 3;
  oneof data {
    Gauge gauge = 5;
    Sum sum = 7;
    Histogram histogram = 9;
    ExponentialHistogram exponential_histogram = 10;
    Summary summary = 11;
  }
}
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum { repeated NumberDataPoint data_points = 1; int32 aggregation_temporality = 2; bool is_monotonic = 3; }
message Histogram { repeated HistogramDataPoint data_points = 1; int32 aggregation_temporality = 2; }
message ExponentialHistogram { repeated ExponentialHistogramDataPoint data_points = 1; int32 aggregation_temporality = 2; }
message Summary { repeated SummaryDataPoint data_points = 1; }
message NumberDataPoint {
  repeated KeyValue attributes = 7;
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  oneof value { double as_double = 4; sfixed64 as_int = 6; }
}
// Histograms are read for their count and sum only.
message HistogramDataPoint {
  repeated KeyValue attributes = 9;
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  fixed64 count = 4;
  optional double sum = 5;
}
message ExponentialHistogramDataPoint {
  repeated KeyValue attributes = 1;
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  fixed64 count = 4;
  optional double sum = 5;
}
message SummaryDataPoint {
  repeated KeyValue attributes = 7;
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  fixed64 count = 4;
  double sum = 5;
}
message ExportMetricsServiceResponse { ExportMetricsPartialSuccess partial_success = 1; }
message ExportMetricsPartialSuccess { int64 rejected_data_points = 1; string error_message = 2; }

message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; }
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; }
message LogRecord {
  fixed64 time_unix_nano = 1;
  fixed64 observed_time_unix_nano = 11;
  int32 severity_number = 2;
  string severity_text = 3;
  AnyValue body = 5;
  repeated KeyValue attributes = 6;
  bytes trace_id = 9;
  bytes span_id = 10;
  string event_name = 12;
}
message ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1; }
message ExportLogsPartialSuccess { int64 rejected_log_records = 1; string error_message = 2; }

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string name = 5;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
}
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }

message Status { int32 code = 1; string message = 2; }
`;

const root = protobuf.parse(PROTO, { keepCase: false }).root;
const type = (name: string) => root.lookupType(`otlp.${name}`);

export const messages = {
  metricsRequest: type('ExportMetricsServiceRequest'),
  metricsResponse: type('ExportMetricsServiceResponse'),
  logsRequest: type('ExportLogsServiceRequest'),
  logsResponse: type('ExportLogsServiceResponse'),
  tracesRequest: type('ExportTraceServiceRequest'),
  tracesResponse: type('ExportTraceServiceResponse'),
  status: type('Status'),
};

/**
 * An export request as protobufjs decodes it: read as it is by records.ts, which knows its
 * differences from the JSON mapping's shape (converting every message to plain data first cost
 * more than the decoding itself).
 */
export function decodeMessage(message: protobuf.Type, body: Uint8Array): Record<string, unknown> {
  return message.decode(body) as unknown as Record<string, unknown>;
}

/**
 * A decoded message as plain data in the shape of the OTLP JSON mapping (lowerCamelCase keys,
 * 64-bit integers as decimal strings, bytes as base64), so one reader serves both encodings.
 */
export function decodeToPlain(message: protobuf.Type, body: Uint8Array): Record<string, unknown> {
  return message.toObject(message.decode(body), { longs: String, enums: Number, bytes: String, defaults: false, oneofs: false }) as Record<string, unknown>;
}

export function encode(message: protobuf.Type, value: Record<string, unknown>): Buffer {
  return Buffer.from(message.encode(message.fromObject(value)).finish());
}
