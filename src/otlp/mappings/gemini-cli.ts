import type { LogInput } from './context.js';
import { IGNORE, nativeEvent, text, type Mapped } from './native.js';

/**
 * Gemini CLI's log events (`gemini_cli.*`): only its prompts feed a figure, the user messages.
 * Its tokens, sessions, tool calls and files come from its metrics (generic.ts); its
 * `api_response` and `tool_call` logs say the same again and are left unused.
 */
export function geminiLog(l: LogInput): Mapped {
  if (l.name !== 'gemini_cli.user_prompt') return IGNORE;
  const { attrs, resource } = l.record;
  const sessionId = text(attrs, 'session.id') ?? text(resource, 'session.id') ?? 'gemini-cli';
  return { events: [nativeEvent(l.id, 'message', { ms: l.ms, sessionId, client: 'terminal-ui' }, { role: 'user' })] };
}
