import type { LogInput, PointInput, SpanInput } from './context.js';
import { counted, eventId, IGNORE, nativeEvent, text, type CounterParts, type Mapped, type NativeEvent } from './native.js';

/**
 * Factory's Droid: `droid.*` metrics, and message spans when it exports them. It exports no
 * tokens, delegation level or tool decision source: its tool calls count as manual, its
 * sessions at the auto-low level (docs/otlp.md lists what each client feeds).
 */
const client = 'terminal-ui' as const;

/** A session is counted once, on the day of the first record that names it: its id is its own key. */
function withSession(events: NativeEvent[], sessionId: string | undefined, ms: number): NativeEvent[] {
  if (!sessionId) return events;
  return [nativeEvent(eventId(['droid-session', sessionId]), 'session_start', { ms, sessionId, client }, { delegationLevel: 'auto-low' }), ...events];
}

export function droidMetric(p: PointInput): Mapped {
  const { attrs, resource } = p.point;
  const sessionId = text(attrs, 'session.id') ?? text(resource, 'session.id');
  // Counted by its parts, as many as its value, and its session once (even when the value is 0).
  const each = (parts: CounterParts): Mapped => {
    const mapped = counted(p.value, p.ms, client, parts);
    if ('reject' in mapped) return mapped;
    const events = withSession([], sessionId, p.ms);
    return 'counter' in mapped ? { events, counted: mapped } : { events };
  };
  switch (p.point.metric) {
    case 'droid.tool.invocations': {
      const tool = text(attrs, 'tool.name', 'tool_name');
      return tool
        ? each({ counter: 'tool_calls', tool, autonomyLevel: 'manual', mcpServer: undefined })
        : { reject: 'droid.tool.invocations without tool.name' };
    }
    case 'droid.mcp.tool_invocations': {
      const server = text(attrs, 'mcp.server', 'mcp_server');
      if (!server) return { reject: 'droid.mcp.tool_invocations without mcp.server' };
      return each({ counter: 'tool_calls', tool: text(attrs, 'tool.name', 'mcp.tool') ?? `mcp__${server}`, autonomyLevel: 'manual', mcpServer: server });
    }
    case 'droid.skill.invocations': {
      const name = text(attrs, 'skill.name');
      return name ? each({ counter: 'skill_calls', name }) : { reject: 'droid.skill.invocations without skill.name' };
    }
    case 'droid.slash_command.invocations': {
      const name = text(attrs, 'command.name', 'slash_command.name', 'command');
      return name ? each({ counter: 'slash_commands', name }) : { reject: 'droid.slash_command.invocations without command.name' };
    }
    case 'droid.hook.invocations': {
      const event = text(attrs, 'hook.event', 'hook_event');
      return event
        ? each({ counter: 'hooks', event, matcher: text(attrs, 'hook.matcher') ?? '', command: '' })
        : { reject: 'droid.hook.invocations without hook.event' };
    }
    case 'droid.code.files_modified':
      return each({ counter: 'files', change: 'edited', path: '', language: undefined });
    case 'droid.git.commits':
      return each({ counter: 'git_commits' });
    case 'droid.git.pull_requests':
      return each({ counter: 'git_prs_created' });
    default:
      // Any other droid.* metric still shows the session was active.
      return sessionId ? { events: withSession([], sessionId, p.ms) } : IGNORE;
  }
}

export function droidSpan(s: SpanInput): Mapped {
  const role = s.span.name === 'droid.message.user' ? 'user' : s.span.name === 'droid.message.assistant' ? 'assistant' : undefined;
  if (!role) return IGNORE;
  const sessionId = text(s.span.attrs, 'session.id') ?? text(s.span.resource, 'session.id');
  return { events: withSession([nativeEvent(s.id, 'message', { ms: s.ms, sessionId: sessionId ?? 'droid', client }, { role })], sessionId, s.ms) };
}

/** Droid log records are not a designated source of any figure. */
export const droidLog = (_l: LogInput): Mapped => IGNORE;
