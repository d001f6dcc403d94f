import path from 'node:path';
import { guardCommand, managedEnv, repositoryHooks, scopeDir, type Plan, type Target } from './target.js';

/**
 * Gemini CLI: `settings.json` `telemetry` (its own OTLP/HTTP exporter) and a BeforeAgent hook.
 * Its settings have no place for headers, so the key goes in `OTEL_EXPORTER_OTLP_HEADERS` in the
 * `.env` beside them (`.gemini/.env`), which Gemini CLI loads into its environment. Managed:
 * /etc/gemini-cli/settings.json, the key and the email in the system's environment.
 */
export function geminiCli(t: Target): Plan {
  const dir = t.scope === 'managed' ? '/etc/gemini-cli' : scopeDir(t, path.join(t.home, '.gemini'), '.gemini');
  const headers = { OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${t.key}` };
  const settings = {
    file: path.join(dir, 'settings.json'),
    format: 'json' as const,
    settings: [
      { path: ['telemetry', 'enabled'], value: true },
      { path: ['telemetry', 'target'], value: 'local' },
      { path: ['telemetry', 'otlpEndpoint'], value: t.url },
      { path: ['telemetry', 'otlpProtocol'], value: 'http' },
    ],
    hooks: [{ event: 'BeforeAgent', command: guardCommand(t, 'prompt', 'gemini-cli') }, ...repositoryHooks(t, 'gemini-cli')],
  };
  if (t.scope === 'managed') return { edits: [settings], env: { ...headers, ...managedEnv(t) } };
  const dotenv = {
    file: path.join(dir, '.env'),
    format: 'dotenv' as const,
    settings: Object.entries(headers).map(([name, value]) => ({ path: [name], value })),
    hooks: [],
  };
  const notes = [
    `Gemini CLI loads only the first .env it finds (the working directory's .gemini/.env or .env, then its parents', then ${dotenv.file}):`,
    `where a repository has its own .env, also export OTEL_EXPORTER_OTLP_HEADERS in your shell's profile (orgctl connect gemini-cli --print shows the value).`,
  ];
  return { edits: [settings, dotenv], env: {}, notes };
}
