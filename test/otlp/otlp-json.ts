/** Builders of OTLP/JSON export requests, shaped as the OTLP JSON mapping and the clients send them. */
export type Attrs = Record<string, string | number | boolean>;

const DAY_MS = 86_400_000;
/** Yesterday at noon (UTC): the newest day the analytics endpoints report. */
export const YESTERDAY_MS = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS / 2;
export const YESTERDAY = new Date(YESTERDAY_MS).toISOString().slice(0, 10);
export const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

export const kv = (attrs: Attrs) =>
  Object.entries(attrs).map(([key, v]) => ({
    key,
    value:
      typeof v === 'string'
        ? { stringValue: v }
        : typeof v === 'boolean'
          ? { boolValue: v }
          : Number.isInteger(v)
            ? { intValue: String(v) }
            : { doubleValue: v },
  }));

export interface Point {
  attrs: Attrs;
  value: number;
  startMs?: number;
  timeMs?: number;
}

const dataPoint = (p: Point, asInt: boolean) => ({
  attributes: kv(p.attrs),
  startTimeUnixNano: ns(p.startMs ?? YESTERDAY_MS - 60_000),
  timeUnixNano: ns(p.timeMs ?? YESTERDAY_MS),
  ...(asInt ? { asInt: String(p.value) } : { asDouble: p.value }),
});

/** A monotonic sum; temporality 1 is delta, 2 cumulative. */
export const sum = (name: string, points: Point[], o: { temporality?: 1 | 2; asInt?: boolean } = {}) => ({
  name,
  sum: { aggregationTemporality: o.temporality ?? 1, isMonotonic: true, dataPoints: points.map((p) => dataPoint(p, o.asInt ?? false)) },
});

export const histogram = (name: string, points: { attrs: Attrs; sum: number; count: number; timeMs?: number }[]) => ({
  name,
  histogram: {
    aggregationTemporality: 1,
    dataPoints: points.map((p) => ({
      attributes: kv(p.attrs),
      startTimeUnixNano: ns(YESTERDAY_MS - 60_000),
      timeUnixNano: ns(p.timeMs ?? YESTERDAY_MS),
      count: String(p.count),
      sum: p.sum,
    })),
  },
});

export const metrics = (resource: Attrs, list: unknown[]) => ({
  resourceMetrics: [{ resource: { attributes: kv(resource) }, scopeMetrics: [{ scope: { name: 'test' }, metrics: list }] }],
});

export interface LogEvent {
  /** The qualified event name, e.g. claude_code.user_prompt */
  name: string;
  attrs: Attrs;
  timeMs?: number;
}

/** Log events as Claude Code sends them: event.name holds the bare name, the body the qualified one. */
export const logs = (resource: Attrs, events: LogEvent[]) => ({
  resourceLogs: [
    {
      resource: { attributes: kv(resource) },
      scopeLogs: [
        {
          scope: { name: 'test' },
          logRecords: events.map((e, i) => ({
            timeUnixNano: ns(e.timeMs ?? YESTERDAY_MS),
            body: { stringValue: e.name },
            attributes: kv({
              'event.name': e.name.slice(e.name.indexOf('.') + 1),
              'event.sequence': i,
              'event.timestamp': new Date(e.timeMs ?? YESTERDAY_MS).toISOString(),
              ...e.attrs,
            }),
          })),
        },
      ],
    },
  ],
});

export const spans = (resource: Attrs, list: { name: string; attrs: Attrs; timeMs?: number }[]) => ({
  resourceSpans: [
    {
      resource: { attributes: kv(resource) },
      scopeSpans: [
        {
          scope: { name: 'test' },
          spans: list.map((s, i) => ({
            traceId: '0'.repeat(31) + String(i % 10),
            spanId: '0'.repeat(15) + String(i % 10),
            name: s.name,
            startTimeUnixNano: ns((s.timeMs ?? YESTERDAY_MS) - 1000),
            endTimeUnixNano: ns(s.timeMs ?? YESTERDAY_MS),
            attributes: kv(s.attrs),
          })),
        },
      ],
    },
  ],
});
