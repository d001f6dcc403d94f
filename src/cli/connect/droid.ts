import path from 'node:path';
import { guardCommand, managedEnv, type Plan, type Target } from './target.js';

/**
 * Droid: SessionStart and PreToolUse hooks in `settings.json` (`droid exec` runs no prompt hook).
 * Its telemetry is read from the environment only (OTEL_TELEMETRY_*), which no settings file
 * sets: connect prints the lines to export. A repository's file is `.factory/settings.local.json`
 * (kept out of git like Claude Code's). Managed: /etc/factory/settings.json and the system's environment.
 */
export function droid(t: Target): Plan {
  const file =
    t.scope === 'managed'
      ? '/etc/factory/settings.json'
      : t.scope === 'project'
        ? path.join(t.project as string, '.factory', 'settings.local.json')
        : path.join(t.home, '.factory', 'settings.json');
  return {
    edits: [
      {
        file,
        format: 'json',
        settings: [],
        hooks: [
          { event: 'SessionStart', command: guardCommand(t, 'session-start', 'droid') },
          { event: 'PreToolUse', matcher: '*', command: guardCommand(t, 'tool', 'droid') },
        ],
      },
    ],
    env: {
      OTEL_CUSTOMER_ENABLED: 'true',
      OTEL_TELEMETRY_ENDPOINT: t.url,
      OTEL_TELEMETRY_HEADERS: `Authorization=Bearer ${t.key}`,
      ...managedEnv(t),
    },
  };
}
