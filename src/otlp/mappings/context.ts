import type { LogRecordIn, MetricPoint, SpanIn } from '../records.js';

/** A data point to map: its value as a delta (cumulative streams already differenced). */
export interface PointInput {
  point: MetricPoint;
  value: number;
  ms: number;
}

/** A log record to map, with its event time and the id its natural key gives. */
export interface LogInput {
  record: LogRecordIn;
  /** The event name, qualified by the client's prefix (claude_code.user_prompt). */
  name: string;
  id: string;
  ms: number;
}

export interface SpanInput {
  span: SpanIn;
  id: string;
  ms: number;
}
