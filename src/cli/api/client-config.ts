import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `orgctl login` keeps: where the service is and the key to call it with. */
export interface ClientConfig {
  url: string;
  key: string;
  /** The application address (readiness reports) when the service runs it on its own port. */
  appUrl?: string;
}

/** $XDG_CONFIG_HOME/orgctl/config.json, or ~/.config/orgctl/config.json. */
export function clientConfigPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'orgctl', 'config.json');
}

export function readClientConfig(env: NodeJS.ProcessEnv): ClientConfig | undefined {
  const file = clientConfigPath(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ClientConfig>;
    if (typeof parsed.url !== 'string' || typeof parsed.key !== 'string') return undefined;
    return { url: parsed.url, key: parsed.key, ...(typeof parsed.appUrl === 'string' ? { appUrl: parsed.appUrl } : {}) };
  } catch {
    return undefined;
  }
}

/** Written readable by its owner only (0600), in a directory only they can enter: it holds a secret. */
export function writeClientConfig(env: NodeJS.ProcessEnv, config: ClientConfig): string {
  const file = clientConfigPath(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFileSync keeps the mode of a file that already existed.
  chmodSync(file, 0o600);
  return file;
}

export function removeClientConfig(env: NodeJS.ProcessEnv): boolean {
  const file = clientConfigPath(env);
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}
