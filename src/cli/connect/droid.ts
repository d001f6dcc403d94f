import path from 'node:path';
import { guardCommand, managedEnv, repositoryHooks, type Plan, type Target } from './target.js';

/**
 * Droid: SessionStart and PreToolUse hooks in `settings.json` (`droid exec` runs no prompt hook).
 * A person's telemetry is read from the environment only (OTEL_TELEMETRY_*; a user settings file's
 * `telemetry` is ignored): connect prints the lines to export. A repository's file is
 * `.factory/settings.local.json` (kept out of git like Claude Code's). The system-wide
 * /etc/factory/settings.json does take `telemetry` (endpoint and headers), so the managed variant
 * puts the export there, and only the email and the guard's service in the system's environment.
 */
export function droid(t: Target): Plan {
  const file =
    t.scope === 'managed'
      ? '/etc/factory/settings.json'
      : t.scope === 'project'
        ? path.join(t.project as string, '.factory', 'settings.local.json')
        : path.join(t.home, '.factory', 'settings.json');
  const managed = t.scope === 'managed';
  const telemetry = { enabled: true, endpoint: t.url, headers: { Authorization: `Bearer ${t.key}` } };
  return {
    edits: [
      {
        file,
        format: 'json',
        settings: managed ? Object.entries(telemetry).map(([key, value]) => ({ path: ['telemetry', key], value })) : [],
        hooks: [
          { event: 'SessionStart', command: guardCommand(t, 'session-start', 'droid') },
          { event: 'PreToolUse', matcher: '*', command: guardCommand(t, 'tool', 'droid') },
          ...repositoryHooks(t, 'droid'),
        ],
      },
    ],
    env: managed ? managedEnv(t) : { OTEL_CUSTOMER_ENABLED: 'true', OTEL_TELEMETRY_ENDPOINT: t.url, OTEL_TELEMETRY_HEADERS: `Authorization=Bearer ${t.key}` },
  };
}
