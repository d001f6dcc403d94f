import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import type { AgentClientName } from './agent-clients.js';

/**
 * Runs a real agent client once, non-interactively, in a home directory of its own: its model
 * provider is the test double, its telemetry goes to orgctl with a person's key. The model
 * provider settings are the test's own; the telemetry settings and the hooks are either written
 * here, where and as `orgctl connect` writes them, or (`connected`) left to `orgctl connect`
 * itself (connectClient), apart from Droid's environment, which connect prints for the person to
 * export.
 */
export interface ClientSetup {
  /** The temporary home directory (HOME); the client runs in `HOME/work`. */
  home: string;
  /** The model provider test double's address. */
  modelUrl: string;
  /** orgctl's address and the person's key. */
  orgctlUrl: string;
  key: string;
  /**
   * Command hooks, by the client's own event name (Claude Code and Codex `UserPromptSubmit`,
   * Gemini CLI `BeforeAgent`, `PreToolUse`…), in its settings as `orgctl connect` writes them.
   */
  hooks?: Record<string, string>;
  /** Droid's wire protocol to the model: Anthropic Messages (the default) or Chat Completions. */
  droidProvider?: 'anthropic' | 'generic-chat-completion-api';
  /** Telemetry and hooks come from `orgctl connect` (run connectClient after this). */
  connected?: boolean;
}

export interface ClientCommand {
  env: Record<string, string>;
  args: string[];
  cwd: string;
}

const writeJson = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

/**
 * Hooks in the format the four clients share (Claude Code's): per event, matcher groups of
 * commands, each given 30 s. Gemini CLI reads `timeout` in milliseconds, the others in seconds.
 */
const hookSettings = (hooks: Record<string, string> | undefined, timeout = 30) =>
  hooks === undefined
    ? {}
    : {
        hooks: Object.fromEntries(Object.entries(hooks).map(([event, command]) => [event, [{ matcher: '*', hooks: [{ type: 'command', command, timeout }] }]])),
      };

/** The model each client is told to use: the test double answers any. */
const CODEX_MODEL = 'gpt-5';
const DROID_MODEL = 'claude-sonnet-4-5';

/** Writes the client's settings under `s.home` and says how to run `prompt` with it. */
export function prepareClient(name: AgentClientName, s: ClientSetup, prompt: string): ClientCommand {
  const cwd = path.join(s.home, 'work');
  mkdirSync(cwd, { recursive: true });
  const auth = `Authorization=Bearer ${s.key}`;
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.home, TERM: 'dumb', LANG: 'C.UTF-8', NO_COLOR: '1' };
  switch (name) {
    case 'claude-code':
      writeJson(
        path.join(s.home, '.claude', 'settings.json'),
        s.connected
          ? {}
          : {
              ...hookSettings(s.hooks),
              env: {
                CLAUDE_CODE_ENABLE_TELEMETRY: '1',
                OTEL_METRICS_EXPORTER: 'otlp',
                OTEL_LOGS_EXPORTER: 'otlp',
                OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
                OTEL_EXPORTER_OTLP_ENDPOINT: s.orgctlUrl,
                OTEL_EXPORTER_OTLP_HEADERS: auth,
              },
            },
      );
      return {
        cwd,
        env: { ...base, ANTHROPIC_BASE_URL: s.modelUrl, ANTHROPIC_API_KEY: 'model-provider-test-double' },
        // A command that is not read-only needs Bash allowed in a non-interactive run.
        args: ['-p', prompt, '--output-format', 'json', '--allowedTools', 'Bash'],
      };
    case 'codex': {
      const codexHome = path.join(s.home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      const exporter = (signal: string) =>
        `{ otlp-http = { endpoint = "${s.orgctlUrl}/v1/${signal}", protocol = "binary", headers = { "Authorization" = "Bearer ${s.key}" } } }`;
      writeFileSync(
        path.join(codexHome, 'config.toml'),
        [
          `model = "${CODEX_MODEL}"`,
          'model_provider = "test-double"',
          '',
          '[model_providers.test-double]',
          'name = "model provider test double"',
          `base_url = "${s.modelUrl}/v1"`,
          'env_key = "TEST_DOUBLE_API_KEY"',
          'wire_api = "responses"',
          '',
          ...(s.connected ? [] : ['[otel]', 'log_user_prompt = false', `exporter = ${exporter('logs')}`, `metrics_exporter = ${exporter('metrics')}`, '']),
        ].join('\n'),
      );
      // Codex reads hooks from hooks.json beside its config, and runs them only when trusted.
      if (s.hooks) writeJson(path.join(codexHome, 'hooks.json'), hookSettings(s.hooks));
      return {
        cwd,
        env: { ...base, CODEX_HOME: codexHome, TEST_DOUBLE_API_KEY: 'model-provider-test-double' },
        args: ['exec', '--skip-git-repo-check', ...(s.hooks || s.connected ? ['--dangerously-bypass-hook-trust'] : []), prompt],
      };
    }
    case 'gemini-cli':
      writeJson(path.join(s.home, '.gemini', 'settings.json'), {
        ...hookSettings(s.hooks, 30_000),
        security: { auth: { selectedType: 'gemini-api-key' } },
        ...(s.connected ? {} : { telemetry: { enabled: true, target: 'local', otlpEndpoint: s.orgctlUrl, otlpProtocol: 'http', logPrompts: false } }),
      });
      return {
        cwd,
        env: {
          ...base,
          GEMINI_API_KEY: 'model-provider-test-double',
          GOOGLE_GEMINI_BASE_URL: s.modelUrl,
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          // Connected: the key comes from the .env connect writes beside the settings.
          ...(s.connected ? {} : { OTEL_EXPORTER_OTLP_HEADERS: auth }),
        },
        // The shell tool is offered in a non-interactive run only in yolo mode.
        args: ['-p', prompt, '--approval-mode', 'yolo'],
      };
    case 'droid':
      writeJson(path.join(s.home, '.factory', 'settings.json'), {
        ...hookSettings(s.hooks),
        customModels: [
          {
            model: DROID_MODEL,
            displayName: 'test double',
            // A Chat Completions client appends /chat/completions to its base URL.
            baseUrl: s.droidProvider === 'generic-chat-completion-api' ? `${s.modelUrl}/v1` : s.modelUrl,
            apiKey: 'model-provider-test-double',
            provider: s.droidProvider ?? 'anthropic',
            maxOutputTokens: 1024,
          },
        ],
      });
      return {
        cwd,
        env: {
          ...base,
          // Without it Droid waits about 7 s on Factory's backend.
          FACTORY_AIRGAP_ENABLED: 'true',
          OTEL_CUSTOMER_ENABLED: 'true',
          OTEL_TELEMETRY_ENDPOINT: s.orgctlUrl,
          OTEL_TELEMETRY_HEADERS: auth,
        },
        args: ['exec', '-m', `custom:${DROID_MODEL}`, '-o', 'json', '--auto', 'high', prompt],
      };
  }
}

export interface ClientResult {
  code: number | null;
  /** Killed after `timeoutMs`. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the client to its exit; after `timeoutMs` kills it and every process it started. */
export function runClient(bin: string, command: ClientCommand, timeoutMs = 60_000): Promise<ClientResult> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, command.args, { env: command.env, cwd: command.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // What the client left running (a shell of its tool, a telemetry helper) goes with it.
      killGroup();
      resolve({ code, timedOut, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

/**
 * The person's own setup, as docs/connect.md tells it: `orgctl login` with their key, then
 * `orgctl connect CLIENT`, as processes in their home (no service or database settings).
 */
export async function connectClient(name: AgentClientName, home: string, url: string, key: string): Promise<void> {
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: '',
    XDG_CACHE_HOME: '',
    XDG_STATE_HOME: '',
    CODEX_HOME: '',
    DATA_DIR: '',
    DATABASE_URL: '',
    ORGCTL_URL: '',
    ORGCTL_API_KEY: '',
  };
  const login = await runCli(['login', '--url', url, '--key', key], env);
  if (login.code !== 0) throw new Error(`orgctl login failed: ${login.stderr}`);
  const connected = await runCli(['connect', name], env);
  if (connected.code !== 0) throw new Error(`orgctl connect ${name} failed: ${connected.stderr}`);
}
