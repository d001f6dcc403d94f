import { unwrap } from '../../client/api-client.js';
import { flag, type CommandContext } from '../api/command.js';
import { printList } from '../api/print.js';
import { planOf } from './clients.js';
import { load } from './files.js';
import { state } from './merge.js';
import { CLIENTS, homes, invocation, projectDir, type ClientName, type Scope } from './target.js';

type State = 'connected' | 'partly' | 'not connected' | 'unreadable';

/** How much of a client's configuration a scope's files hold now (the key and this orgctl's invocation included). */
function scopeState(ctx: CommandContext, client: ClientName, scope: Scope, project: string | undefined): State {
  const { url, key } = ctx.connection();
  const { edits } = planOf(client, { scope, url, key, orgctl: invocation(), ...homes(ctx.env), ...(project ? { project } : {}) });
  try {
    const states = edits.map((e) => state(load(e.file, e.format).doc, e));
    if (states.every((s) => s === 'connected')) return 'connected';
    return states.every((s) => s === 'not connected') ? 'not connected' : 'partly';
  } catch {
    return 'unreadable';
  }
}

/** `orgctl connect --status`: per client, its user (and --project) files, and when its last export of the caller's records arrived. */
export async function connectStatus(ctx: CommandContext): Promise<number> {
  const project = projectDir(flag(ctx, 'project'));
  const only = ctx.positionals[0];
  const clients = CLIENTS.filter((c) => only === undefined || c === only);
  let arrived: Map<string, string> | undefined;
  let unreachable: string | undefined;
  try {
    const body = await unwrap(ctx.api().GET('/api/v0/usage/connections'));
    arrived = new Map(body.clients.map((c) => [c.client, c.lastExportAt]));
  } catch (e) {
    unreachable = (e as Error).message;
  }
  const rows = clients.map((client) => ({
    client,
    user: scopeState(ctx, client, 'user', undefined),
    ...(project ? { project: scopeState(ctx, client, 'project', project) } : {}),
    lastExportAt: arrived ? (arrived.get(client) ?? null) : undefined,
  }));
  printList(
    ctx,
    { clients: rows },
    rows.map((r) => ({
      client: r.client,
      user: r.user,
      ...(project ? { project: r.project } : {}),
      last_export: r.lastExportAt === undefined ? 'unknown (service unreachable)' : (r.lastExportAt ?? 'none yet'),
    })),
  );
  if (unreachable) process.stderr.write(`The service could not say when exports arrived: ${unreachable}\n`);
  return 0;
}
