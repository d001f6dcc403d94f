import { addDays, dayStartMs, eachDay, weekday } from '../core/days.js';
import { AUTONOMY_LEVELS, DELEGATION_LEVELS } from '../events/schemas.js';
import { catalogueModels } from './credits.js';

/** A small, fast, seedable generator (mulberry32): the same seed gives the same telemetry. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

const CLIENTS = ['terminal-ui', 'terminal-ui', 'terminal-ui', 'web', 'non-interactive-cli'] as const;
const TOOLS = ['Read', 'Edit', 'Grep', 'Glob', 'Bash', 'Write', 'TodoWrite', 'WebFetch'];
const MCP = [
  { server: 'GitHub', tools: ['create_pull_request', 'list_issues'] },
  { server: 'github', tools: ['get_file_contents'] },
  { server: 'Linear', tools: ['create_issue'] },
  { server: 'sentry', tools: ['get_issue_details'] },
];
const SKILLS = ['pdf', 'xlsx', 'frontend-design', 'code-review'];
const SLASH = ['/review', '/compact', '/init', '/security-review', '/clear'];
const HOOKS = [
  { event: 'PostToolUse', matcher: 'Edit|Write', command: 'npx prettier --write' },
  { event: 'Stop', matcher: '', command: 'notify-send done' },
  { event: 'PreToolUse', matcher: 'Bash', command: './scripts/guard.sh' },
  { event: 'SessionEnd', matcher: '', command: 'scripts/upload-log.sh' },
];
const FILES = [
  'src/app.ts',
  'src/routes/users.tsx',
  'lib/util.js',
  'api/server.go',
  'tools/report.py',
  'crates/core/src/lib.rs',
  'README.md',
  'docs/Guide.MD',
  'config/app.yaml',
  'Dockerfile',
  'Makefile',
  'db/schema.sql',
  'web/styles.css',
];

export interface DemoOptions {
  userIds: readonly string[];
  days: number;
  /** The last day of telemetry, YYYY-MM-DD (yesterday, so that analytics can show it). */
  lastDay: string;
  seed: number;
}

const REPOSITORIES = ['api', 'web', 'mobile', 'infra'];

/**
 * Realistic telemetry for a team: working days busier than weekends, every client, every
 * delegation and autonomy level, models of the catalogue and an unknown one with cache use,
 * MCP servers differing only by case, skills, slash commands, hooks, files in many languages,
 * commits and pull requests. Event ids derive from the seed, user and day, so seeding the
 * same days again stores nothing twice.
 */
export function demoEvents(o: DemoOptions): Record<string, unknown>[] {
  const rng = random(o.seed);
  const models = [...catalogueModels().map((m) => ({ id: m.id, tier: m.tier })), { id: 'local-llama-3.1-70b', tier: 'standard' as const }];
  const events: Record<string, unknown>[] = [];
  const days = eachDay(addDays(o.lastDay, 1 - o.days), o.lastDay);
  o.userIds.forEach((userId, u) => {
    // Each person has habits: a main client, a favourite model and a usual delegation level.
    const client = CLIENTS[u % CLIENTS.length]!;
    const model = models[(u * 3) % models.length]!;
    const delegation = DELEGATION_LEVELS[u % DELEGATION_LEVELS.length]!;
    for (const day of days) {
      const weekend = [0, 6].includes(weekday(day));
      if (!rng.chance(weekend ? 0.2 : 0.85)) continue;
      let n = 0;
      let clock = dayStartMs(day) + rng.int(7, 10) * 3_600_000;
      const push = (type: string, sessionId: string, at: string, fields: Record<string, unknown> = {}) => {
        clock += rng.int(5, 240) * 1000;
        events.push({
          id: `demo-${o.seed}-${u}-${day}-${++n}`,
          type,
          timestamp: new Date(Math.min(clock, Date.parse(`${day}T23:59:59Z`))).toISOString(),
          sessionId,
          client: at,
          userId,
          ...fields,
        });
      };
      for (let s = 0, sessions = rng.int(1, 3); s < sessions; s++) {
        const sessionId = `demo-${o.seed}-${u}-${day}-s${s}`;
        const on = rng.chance(0.8) ? client : rng.pick(CLIENTS);
        // Each session works in one of the team's repositories (chosen without the generator, so the rest stays as it was).
        const repository = { url: `https://github.com/acme/${REPOSITORIES[(u + s) % REPOSITORIES.length]}.git`, branch: 'main' };
        push('session_start', sessionId, on, { delegationLevel: rng.chance(0.7) ? delegation : rng.pick(DELEGATION_LEVELS), repository });
        for (let turn = 0, turns = rng.int(1, 6); turn < turns; turn++) {
          push('message', sessionId, on, { role: 'user' });
          const m = rng.chance(0.75) ? model : rng.pick(models);
          push('model_request', sessionId, on, {
            model: m.id,
            tier: m.tier,
            inputTokens: rng.int(500, 8000),
            outputTokens: rng.int(100, 3000),
            cacheReadTokens: rng.chance(0.8) ? rng.int(5000, 120_000) : 0,
            cacheWriteTokens: rng.chance(0.5) ? rng.int(200, 6000) : 0,
          });
          for (let c = 0, calls = rng.int(0, 5); c < calls; c++) {
            if (rng.chance(0.15)) {
              const mcp = rng.pick(MCP);
              push('tool_call', sessionId, on, { tool: rng.pick(mcp.tools), autonomyLevel: rng.pick(AUTONOMY_LEVELS), mcpServer: mcp.server });
            } else push('tool_call', sessionId, on, { tool: rng.pick(TOOLS), autonomyLevel: rng.pick(AUTONOMY_LEVELS) });
            if (rng.chance(0.3)) push('hook', sessionId, on, rng.pick(HOOKS));
          }
          if (rng.chance(0.4)) push('file_change', sessionId, on, { path: rng.pick(FILES), change: rng.chance(0.3) ? 'created' : 'edited' });
          push('message', sessionId, on, { role: 'assistant' });
        }
        if (rng.chance(0.25)) push('skill', sessionId, on, { name: rng.pick(SKILLS) });
        if (rng.chance(0.3)) push('slash_command', sessionId, on, { name: rng.pick(SLASH) });
        if (rng.chance(0.5)) push('git_commit', sessionId, on);
        if (rng.chance(0.12)) push('pr_created', sessionId, on);
      }
    }
  });
  return events;
}
