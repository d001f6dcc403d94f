import type { LogRecordIn, MetricPoint } from '../records.js';
import { claudeLog, claudeMetric } from './claude-code.js';
import { codexLog } from './codex.js';
import type { LogInput, PointInput, SpanInput } from './context.js';
import { droidLog, droidMetric, droidSpan } from './droid.js';
import { geminiLog } from './gemini-cli.js';
import { genericMetric } from './generic.js';
import { clean } from '../attribution.js';
import { eventId, IGNORE, originId, text, textOf, textsId, type Mapped } from './native.js';

/** Each metric goes to the mapping of the client that owns its name; one designated signal per figure. */
export function mapPoint(p: PointInput): Mapped {
  const name = p.point.metric;
  if (name.startsWith('claude_code.')) return claudeMetric(p);
  if (name.startsWith('droid.')) return droidMetric(p);
  if (name.startsWith('gen_ai.') || name.startsWith('gemini_cli.')) return genericMetric(p);
  return IGNORE;
}

/** A log event's name with its client's prefix: Claude Code names `user_prompt` in `event.name`. */
export function qualifiedLogName(r: LogRecordIn): string {
  if (r.name.includes('.')) return r.name;
  const service = textOf(r.resource['service.name']) ?? '';
  if (service === 'claude-code') return `claude_code.${r.name}`;
  if (service.startsWith('codex')) return `codex.${r.name}`;
  return r.name;
}

/**
 * The natural key of a log record: what makes a re-sent or re-batched record the same one.
 * Claude Code numbers its events per session; Codex names the conversation and call.
 */
export function logId(r: LogRecordIn, name: string): string {
  const a = r.attrs;
  if (name.startsWith('claude_code.')) {
    // Read each at a site of its own (textOf in native.ts).
    const session = textOf(a['session.id']);
    const sequence = textOf(a['event.sequence']);
    const timestamp = textOf(a['event.timestamp']);
    if (session && (sequence || timestamp)) return textsId('claude_code', session, name, sequence ?? null, timestamp ?? null);
  }
  if (name.startsWith('codex.') && text(a, 'conversation.id')) {
    return eventId(['codex', text(a, 'conversation.id'), name, text(a, 'call_id') ?? text(a, 'event.timestamp') ?? r.timeNs.toString()]);
  }
  return originId('log', r, r.scope, name, r.attrs, r.timeNs.toString());
}

/**
 * The group a log record is counted in (seen-groups-store.ts), made of parts of its key so that
 * a record always finds its group: a Claude Code event's session and the minute of its
 * `event.timestamp` (`timestampMs`, NaN when it has none that parses). Returns those parts (the
 * group's key is groupKey of them; an export's records mostly share them), or undefined for the
 * other records: a Codex call is keyed by its conversation and call alone, whose group would
 * grow without end.
 */
export function logGroup(r: LogRecordIn, name: string, timestampMs: number): [session: string, minute: number] | undefined {
  if (!name.startsWith('claude_code.') || Number.isNaN(timestampMs)) return undefined;
  const session = textOf(r.attrs['session.id']);
  return session === undefined ? undefined : [session, Math.floor(timestampMs / 60_000)];
}

export const groupKey = (group: [session: string, minute: number]): string => eventId(['group', 'claude_code', ...group]);

/** The agent clients whose log records orgctl reads, by the `service.name` of their resource. */
export function agentOf(resource: LogRecordIn['resource']): string | undefined {
  const service = textOf(resource['service.name']) ?? '';
  if (service === 'claude-code') return 'claude-code';
  if (service.startsWith('codex')) return 'codex';
  if (service === 'gemini-cli') return 'gemini-cli';
  if (service.includes('droid')) return 'droid';
  return undefined;
}

/** Gemini CLI also logs OpenTelemetry GenAI events (`gen_ai.client.inference.operation.details`): known, unused. */
const AGENT_PREFIXES = ['claude_code.', 'codex.', 'gemini_cli.', 'droid.', 'gen_ai.'];

export function mapLog(l: LogInput): Mapped {
  if (l.name.startsWith('claude_code.')) return claudeLog(l);
  if (l.name.startsWith('codex.')) return codexLog(l);
  if (l.name.startsWith('droid.')) return droidLog(l);
  if (l.name.startsWith('gemini_cli.')) return geminiLog(l);
  // A line of a client's own log (records.ts, logEventName) is no event.
  if (l.name === '') return IGNORE;
  // A known agent's record under a name of none of them would be dropped without a word (Codex
  // 0.169's were, when it moved their names): it is rejected, and its kind warned about once.
  const agent = agentOf(l.record.resource);
  if (agent !== undefined && !AGENT_PREFIXES.some((p) => l.name.startsWith(p))) {
    return { reject: `a ${agent} log record whose event name orgctl does not know (${JSON.stringify(clean(l.name, 80))})`, unmapped: `${agent} log records` };
  }
  return IGNORE;
}

export function mapSpan(s: SpanInput): Mapped {
  return s.span.name.startsWith('droid.') ? droidSpan(s) : IGNORE;
}

/**
 * The identity of a metric stream: resource, scope, metric and point attributes. Stored stream
 * states are kept under it, so it must not change; the export computes it from its metric's
 * serialized start (service.ts), which tests hold equal to this.
 */
export function streamKey(p: MetricPoint): string {
  return originId('stream', p, p.scope, p.metric, p.attrs);
}

/**
 * The set a stream's state is kept in (otlp_stream_sets): its metric, resource and scope, the
 * streams one OpenTelemetry SDK exports of a metric at each collection. It must not change
 * either; the export computes it as streamKey's start, which tests hold equal to this.
 */
export function streamSetKey(p: MetricPoint): string {
  return originId('stream', p, p.scope, p.metric);
}
