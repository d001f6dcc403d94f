/** The client-side hook events an agent client runs hooks for. */
export const hookEvents = ['PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SubagentStop', 'SessionEnd'] as const;

export type HookEvent = (typeof hookEvents)[number];

export function isHookEvent(name: string): name is HookEvent {
  return (hookEvents as readonly string[]).includes(name);
}

/** Events whose entries are filtered by `matcher` against the tool name. */
export function isToolEvent(event: HookEvent): boolean {
  return event === 'PreToolUse' || event === 'PostToolUse';
}

/**
 * Events where a hook can hold the agent back (exit 2 or `decision: "block"`): before a tool
 * runs, after it ran (the reason goes back to the agent), and when the agent or a subagent
 * is about to stop. A Notification or SessionEnd hook cannot undo what already happened, so
 * there a "block" is reported like any other non-blocking error.
 */
export function isBlockingEvent(event: HookEvent): boolean {
  return event === 'PreToolUse' || event === 'PostToolUse' || event === 'Stop' || event === 'SubagentStop';
}
