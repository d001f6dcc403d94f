import { isToolEvent, type HookEvent } from './events.js';
import type { HookInput } from './schemas.js';

export interface HookInputOptions {
  event: HookEvent;
  sessionId: string;
  cwd: string;
  message?: string;
  reason?: string;
  toolName?: string;
  stopHookActive?: boolean;
}

/**
 * The stdin object: the common fields, plus the one field each event
 * carries. Values given for another event are left out, so a client may pass them all.
 */
export function buildHookInput(o: HookInputOptions): HookInput {
  const input: HookInput = { hook_event_name: o.event, session_id: o.sessionId, cwd: o.cwd };
  switch (o.event) {
    case 'Notification':
      return { ...input, message: o.message ?? '' };
    case 'SessionEnd':
      return { ...input, reason: o.reason ?? 'other' };
    case 'Stop':
    case 'SubagentStop':
      return { ...input, stop_hook_active: o.stopHookActive ?? false };
    default:
      return isToolEvent(o.event) && o.toolName !== undefined ? { ...input, tool_name: o.toolName } : input;
  }
}
