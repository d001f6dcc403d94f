import type { Client } from '../../events/schemas.js';
import type { Attrs } from '../records.js';
import type { LogInput, PointInput } from './context.js';
import type { TokenKind } from '../../analytics/rollups.js';
import {
  counted,
  IGNORE,
  nativeEvent,
  NOTHING,
  text,
  textOf,
  tokenCount,
  tokens,
  type CounterParts,
  type EventBase,
  type Mapped,
  type NativeEvent,
} from './native.js';

/** Claude Code (`service.name` claude-code): its metrics and log events, per the mapping table of docs/otlp.md. */

/** `app.entrypoint`: cli is the terminal UI, sdk-* a headless run; anything else counts as the terminal UI. */
export function claudeClient(attrs: Attrs, resource: Attrs): Client {
  const entry = textOf(attrs['app.entrypoint']) ?? textOf(resource['app.entrypoint']);
  return entry?.startsWith('sdk-') ? 'non-interactive-cli' : 'terminal-ui';
}

// The attributes every record reads are read as textOf(attrs['key']) (see textOf).
const session = (attrs: Attrs, resource: Attrs) => textOf(attrs['session.id']) ?? textOf(resource['session.id']) ?? 'claude-code';

/** The kind of tokens a `type` attribute names (a switch: a lookup by a key that varies goes megamorphic). */
function tokenKind(type: string | undefined): TokenKind | undefined {
  switch (type) {
    case 'input':
      return 'input';
    case 'output':
      return 'output';
    case 'cacheRead':
      return 'cacheRead';
    case 'cacheCreation':
      return 'cacheWrite';
    default:
      return undefined;
  }
}

export function claudeMetric(p: PointInput): Mapped {
  const { attrs, resource } = p.point;
  if (p.point.metric === 'claude_code.token.usage') {
    const kind = tokenKind(textOf(attrs['type']));
    const model = textOf(attrs['model']);
    const n = tokens(p.value);
    if (!kind || !model) return { reject: 'claude_code.token.usage without a known type or a model' };
    if (n === undefined) return { reject: 'claude_code.token.usage with a value that is not a token count' };
    // Counted by its parts (a model request's rollups read no session).
    return n === 0 ? NOTHING : tokenCount(p.ms, claudeClient(attrs, resource), model, kind, n);
  }
  const client = claudeClient(attrs, resource);
  // Counted by its parts, as many as its value (a counter's rollups read no session).
  const each = (parts: CounterParts) => counted(p.value, p.ms, client, parts);
  switch (p.point.metric) {
    case 'claude_code.session.count':
      // Sessions opened in the agents view are not sessions of work.
      if (text(attrs, 'start_type') === 'agents_view') return IGNORE;
      return each({ counter: 'sessions', level: 'auto-low' });
    case 'claude_code.code_edit_tool.decision': {
      if (text(attrs, 'decision') !== 'accept') return IGNORE;
      const tool = text(attrs, 'tool_name', 'tool');
      const change = tool === 'Write' ? 'created' : tool === 'Edit' || tool === 'MultiEdit' || tool === 'NotebookEdit' ? 'edited' : undefined;
      if (!change) return IGNORE;
      return each({ counter: 'files', change, path: '', language: text(attrs, 'language') });
    }
    case 'claude_code.commit.count':
      return each({ counter: 'git_commits' });
    case 'claude_code.pull_request.count':
      return each({ counter: 'git_prs_created' });
    default:
      return IGNORE;
  }
}

/** The MCP server of a tool call: the name Claude Code logs, else the mcp__SERVER__tool prefix. */
function mcpServer(attrs: Attrs, tool: string): string | undefined {
  if (attrs.mcp_server_scope === undefined && !tool.startsWith('mcp__')) return undefined;
  // tool_parameters is content: only the server name is read from it, and nothing else is kept.
  const params = attrs.tool_parameters;
  if (typeof params === 'string') {
    try {
      const name = (JSON.parse(params) as { mcp_server_name?: unknown }).mcp_server_name;
      if (typeof name === 'string' && name !== '') return name;
    } catch {
      // not JSON: fall back to the tool name
    }
  } else if (typeof params === 'object' && params !== null && !Array.isArray(params) && typeof params.mcp_server_name === 'string') {
    return params.mcp_server_name;
  }
  const m = /^mcp__(.+?)__/.exec(tool);
  return m?.[1];
}

/** A tool decided by configuration or a hook ran on its own; one the user approved did not. */
const autonomy = (source: string | undefined) => (source === 'config' || source === 'hook' ? 'auto-low' : 'manual');

export function claudeLog(l: LogInput): Mapped {
  const { attrs, resource } = l.record;
  const base: EventBase = { ms: l.ms, sessionId: session(attrs, resource), client: claudeClient(attrs, resource) };
  switch (l.name) {
    case 'claude_code.user_prompt': {
      const events: NativeEvent[] = [nativeEvent(l.id, 'message', base, { role: 'user' })];
      const command = textOf(attrs['command_name']);
      if (command) events.push(nativeEvent(`${l.id}#slash`, 'slash_command', base, { name: command }));
      return { events };
    }
    case 'claude_code.assistant_response':
      return { events: [nativeEvent(l.id, 'message', base, { role: 'assistant' })] };
    case 'claude_code.tool_result': {
      const tool = textOf(attrs['tool_name']);
      if (!tool) return { reject: 'claude_code.tool_result without tool_name' };
      const server = mcpServer(attrs, tool);
      // `success` is "true" or "false": a failed call counts in the repositories' tool error rate.
      const success = textOf(attrs['success']);
      return {
        events: [
          nativeEvent(l.id, 'tool_call', base, {
            tool,
            autonomyLevel: autonomy(textOf(attrs['decision_source']) ?? textOf(attrs['source'])),
            ...(server ? { mcpServer: server } : {}),
            ...(success === 'false' ? { outcome: 'error' } : success === 'true' ? { outcome: 'success' } : {}),
          }),
        ],
      };
    }
    case 'claude_code.skill_activated': {
      const name = text(attrs, 'skill.name', 'skill_name');
      return name ? { events: [nativeEvent(l.id, 'skill', base, { name })] } : { reject: 'claude_code.skill_activated without skill.name' };
    }
    case 'claude_code.hook_execution_complete': {
      const event = text(attrs, 'hook_event');
      if (!event) return { reject: 'claude_code.hook_execution_complete without hook_event' };
      const hookName = text(attrs, 'hook_name') ?? '';
      const colon = hookName.indexOf(':');
      return { events: [nativeEvent(l.id, 'hook', base, { event, matcher: colon >= 0 ? hookName.slice(colon + 1) : '', command: '' })] };
    }
    default:
      return IGNORE;
  }
}
