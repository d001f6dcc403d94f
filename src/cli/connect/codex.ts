import path from 'node:path';
import { guardCommand, managedEnv, repositoryHooks, scopeDir, type Plan, type Target } from './target.js';

/**
 * Codex: `config.toml` `[otel]` (a logs and a metrics exporter, OTLP/HTTP protobuf, the key in
 * their headers) and `hooks.json` beside it (Claude Code's format; Codex runs hooks only with
 * `--dangerously-bypass-hook-trust` or a trusted hook). A repository's files are `.codex/`
 * (read only when the person trusts the project). Managed: /etc/codex/config.toml; hooks stay per user.
 */
export function codex(t: Target): Plan {
  const dir = t.scope === 'managed' ? '/etc/codex' : scopeDir(t, t.codexHome, '.codex');
  const exporter = (signal: string) => ({
    'otlp-http': { endpoint: `${t.url}/v1/${signal}`, protocol: 'binary', headers: { Authorization: `Bearer ${t.key}` } },
  });
  const hooksFile = t.scope === 'managed' ? '$CODEX_HOME/hooks.json' : path.join(dir, 'hooks.json');
  return {
    edits: [
      {
        file: path.join(dir, 'config.toml'),
        format: 'toml',
        settings: [
          { path: ['otel', 'exporter'], value: exporter('logs') },
          { path: ['otel', 'metrics_exporter'], value: exporter('metrics') },
        ],
        hooks: [],
      },
      {
        file: hooksFile,
        format: 'json',
        settings: [],
        hooks: [{ event: 'UserPromptSubmit', command: guardCommand(t, 'prompt', 'codex') }, ...repositoryHooks(t, 'codex')],
      },
    ],
    env: managedEnv(t),
  };
}
