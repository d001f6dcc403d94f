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

function eventAt(i: number, userId: string, ms: number, client: string, runId: string): Record<string, unknown> {
  const base = { id: `${runId}-${i}`, timestamp: new Date(ms).toISOString(), sessionId: `${runId}-${userId}-${Math.floor(ms / 86_400_000)}`, client, userId };
  const k = i % 20;
  if (k === 0) return { ...base, type: 'session_start', delegationLevel: DELEGATION[(i / 20) % 5 | 0] };
  if (k < 5) return { ...base, type: 'message', role: k % 2 ? 'user' : 'assistant' };
  if (k < 8) {
    const m = MODELS[i % MODELS.length]!;
    return { ...base, type: 'model_request', ...m, inputTokens: 1000 + (i % 5000), outputTokens: 200 + (i % 900), cacheReadTokens: (i % 7) * 9000, cacheWriteTokens: (i % 3) * 400 };
  }
  if (k < 15) return { ...base, type: 'tool_call', tool: TOOLS[i % TOOLS.length], autonomyLevel: LEVELS[i % 4], ...(i % 11 === 0 ? { mcpServer: i % 2 ? 'GitHub' : 'github' } : {}) };
  if (k === 15) return { ...base, type: 'skill', name: 'pdf' };
  if (k === 16) return { ...base, type: 'slash_command', name: '/review' };
  if (k === 17) return { ...base, type: 'hook', event: 'Stop', matcher: '', command: 'notify.sh' };
  if (k === 18) return { ...base, type: 'file_change', path: FILES[i % FILES.length], change: i % 3 ? 'edited' : 'created' };
  return { ...base, type: i % 7 ? 'git_commit' : 'pr_created' };
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
      const userId = o.users[(i * 7919) % o.users.length]!;
      batch.push(eventAt(i, userId, ms, CLIENTS[i % CLIENTS.length]!, o.runId));
    }
    yield batch;
  }
}
