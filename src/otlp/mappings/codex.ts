import type { Client } from '../../events/schemas.js';
import type { Attrs } from '../records.js';
import type { LogInput } from './context.js';
import { IGNORE, modelRequest, nativeEvent, num, text, tokens, type EventBase, type Mapped } from './native.js';

/** OpenAI's Codex CLI: its `codex.*` log events (its metrics are not a designated source). */

/** `originator`: codex_exec and codex_sdk_* run headless; everything else is the terminal UI. */
function codexClient(attrs: Attrs, resource: Attrs): Client {
  const o = text(attrs, 'originator') ?? text(resource, 'originator', 'service.name') ?? '';
  return o === 'codex_exec' || o.startsWith('codex_sdk') ? 'non-interactive-cli' : 'terminal-ui';
}

const LEVELS: Record<string, 'auto-high' | 'auto-medium' | 'auto-low'> = {
  never: 'auto-high',
  'on-request': 'auto-medium',
  'on-failure': 'auto-medium',
  untrusted: 'auto-low',
};

export function codexLog(l: LogInput): Mapped {
  const { attrs, resource } = l.record;
  const base: EventBase = { ms: l.ms, sessionId: text(attrs, 'conversation.id') ?? 'codex', client: codexClient(attrs, resource) };
  switch (l.name) {
    case 'codex.sse_event': {
      if (text(attrs, 'event.kind') !== 'response.completed') return IGNORE;
      // Codex logs each response.completed twice, the first without token counts: that one is not a figure.
      if (attrs.input_token_count === undefined && attrs.output_token_count === undefined) return IGNORE;
      const model = text(attrs, 'model', 'slug');
      const input = num(attrs.input_token_count);
      const cached = num(attrs.cached_token_count) ?? 0;
      const output = num(attrs.output_token_count);
      if (!model || input === undefined || output === undefined) return { reject: 'codex.sse_event response.completed without model or token counts' };
      // Codex's input count includes the cached tokens; the native event counts them apart.
      const [i, c, o] = [tokens(Math.max(0, input - cached)), tokens(cached), tokens(output)];
      if (i === undefined || c === undefined || o === undefined) return { reject: 'codex.sse_event with a token count out of range' };
      return { events: [modelRequest(l.id, base, model, { input: i, output: o, cacheRead: c, cacheWrite: 0 })] };
    }
    case 'codex.conversation_starts':
      return { events: [nativeEvent(l.id, 'session_start', base, { delegationLevel: LEVELS[text(attrs, 'approval_policy') ?? ''] ?? 'auto-low' })] };
    case 'codex.user_prompt':
      return { events: [nativeEvent(l.id, 'message', base, { role: 'user' })] };
    case 'codex.tool_result': {
      const tool = text(attrs, 'tool_name');
      if (!tool) return { reject: 'codex.tool_result without tool_name' };
      const server = text(attrs, 'mcp_server');
      return { events: [nativeEvent(l.id, 'tool_call', base, { tool, autonomyLevel: 'manual', ...(server ? { mcpServer: server } : {}) })] };
    }
    default:
      return IGNORE;
  }
}
