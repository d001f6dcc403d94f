/**
 * Synthetic telemetry for the analytics benchmark: `total` events spread evenly over `users`
 * users and the `days` days ending `lastDay`, in the mix of a real team (about one model
 * request and three tool calls per user message), generated lazily, batch by batch.
 */
const MODELS = [
  { model: 'claude-sonnet-4-5', tier: 'standard' },
  { model: 'claude-opus-4-1-thinking', tier: 'thinking' },
  { model: 'gpt-5', tier: 'standard' },
  { model: 'local-model', tier: 'standard' },
];
const TOOLS = ['Read', 'Edit', 'Grep', 'Bash', 'Write', 'Glob'];
const LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'manual'];
const DELEGATION = ['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual'];
const CLIENTS = ['terminal-ui', 'terminal-ui', 'web', 'non-interactive-cli'];
const FILES = ['src/a.ts', 'lib/b.py', 'cmd/c.go', 'README.md', 'Makefile', 'web/d.tsx'];

/**
 * Event i is event k = i % 20 of session b = i / 20: a session belongs to one user and one client
 * and opens with session_start; its three model requests use three of the four models.
 */
function eventAt(i: number, userId: string, ms: number, runId: string): Record<string, unknown> {
  const b = Math.floor(i / 20), k = i % 20;
  const base = { id: `${runId}-${i}`, timestamp: new Date(ms).toISOString(), sessionId: `${runId}-${b}`, client: CLIENTS[b % CLIENTS.length], userId };
  if (k === 0) return { ...base, type: 'session_start', delegationLevel: DELEGATION[b % DELEGATION.length] };
  if (k < 5) return { ...base, type: 'message', role: k % 2 ? 'user' : 'assistant' };
  if (k < 8) {
    const m = MODELS[(b + k) % MODELS.length]!;
    return { ...base, type: 'model_request', ...m, inputTokens: 1000 + (i % 5000), outputTokens: 200 + (i % 900), cacheReadTokens: (i % 7) * 9000, cacheWriteTokens: (i % 3) * 400 };
  }
  if (k < 15) return { ...base, type: 'tool_call', tool: TOOLS[(b + k) % TOOLS.length], autonomyLevel: LEVELS[(b + k) % LEVELS.length], ...((b + k) % 11 === 0 ? { mcpServer: b % 2 ? 'GitHub' : 'github' } : {}) };
  if (k === 15) return { ...base, type: 'skill', name: 'pdf' };
  if (k === 16) return { ...base, type: 'slash_command', name: '/review' };
  if (k === 17) return { ...base, type: 'hook', event: 'Stop', matcher: '', command: 'notify.sh' };
  if (k === 18) return { ...base, type: 'file_change', path: FILES[b % FILES.length], change: b % 3 ? 'edited' : 'created' };
  return { ...base, type: b % 7 ? 'git_commit' : 'pr_created' };
}

export interface SyntheticOptions {
  total: number;
  users: string[];
  days: number;
  lastDayMs: number;
  batchSize: number;
  runId: string;
}

export function* syntheticBatches(o: SyntheticOptions) {
  const firstMs = o.lastDayMs - (o.days - 1) * 86_400_000;
  const span = o.days * 86_400_000 - 1000;
  for (let start = 0; start < o.total; start += o.batchSize) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(o.total, start + o.batchSize); i++) {
      // Events advance through time as they are numbered, as a live service would receive them.
      const ms = firstMs + Math.floor((i / o.total) * span);
      const userId = o.users[(Math.floor(i / 20) * 7919) % o.users.length]!;
      batch.push(eventAt(i, userId, ms, o.runId));
    }
    yield batch;
  }
}
