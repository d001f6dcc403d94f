import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { droid } from './droid.js';
import { geminiCli } from './gemini-cli.js';
import type { ClientName, Plan, Target } from './target.js';

const PLANS: Record<ClientName, (t: Target) => Plan> = { 'claude-code': claudeCode, codex, 'gemini-cli': geminiCli, droid };

export function planOf(client: ClientName, t: Target): Plan {
  return PLANS[client](t);
}
