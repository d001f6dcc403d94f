import path from 'node:path';
import { guardCommand, managedEnv, repositoryHooks, type Plan, type Target } from './target.js';
import type { Setting } from './merge.js';

/**
 * Claude Code: `settings.json` `env` (its OpenTelemetry settings), `statusLine`, a
 * UserPromptSubmit hook and the SessionStart hook of the session's repository. A repository's file is `.claude/settings.local.json`, which Claude Code
 * keeps out of git, since it holds the person's key. Managed: /etc/claude-code/managed-settings.json.
 */
export function claudeCode(t: Target): Plan {
  const file =
    t.scope === 'managed'
      ? '/etc/claude-code/managed-settings.json'
      : t.scope === 'project'
        ? path.join(t.project as string, '.claude', 'settings.local.json')
        : path.join(t.home, '.claude', 'settings.json');
  const env: Record<string, string> = {
    CLAUDE_CODE_ENABLE_TELEMETRY: '1',
    OTEL_METRICS_EXPORTER: 'otlp',
    OTEL_LOGS_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_ENDPOINT: t.url,
    OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${t.key}`,
    // Claude Code passes its settings' env to hooks: the guard of a managed machine finds the service there.
    ...managedEnv(t),
  };
  const settings: Setting[] = [
    ...Object.entries(env).map(([name, value]) => ({ path: ['env', name], value })),
    { path: ['statusLine'], value: { type: 'command', command: guardCommand(t, 'status-line', 'claude-code') } },
  ];
  return {
    edits: [
      {
        file,
        format: 'json',
        settings,
        hooks: [{ event: 'UserPromptSubmit', command: guardCommand(t, 'prompt', 'claude-code') }, ...repositoryHooks(t, 'claude-code')],
      },
    ],
    env: {},
  };
}
