import { createApiClient, unwrap } from '../../client/api-client.js';
import { UsageError } from '../../core/cli/args.js';
import { isManagedScopeSet, MANAGED_SCOPES } from '../../client/managed-scopes.js';
import { shellQuote } from '../../core/process/shell-quote.js';
import { flag, type ApiCommand, type CommandContext } from '../api/command.js';
import { readClientConfig } from '../api/client-config.js';
import { preview, plan, write } from './apply.js';
import { planOf } from './clients.js';
import { render } from './files.js';
import { apply, emptyRecord } from './merge.js';
import { readRecords, writeRecords } from './record.js';
import { connectStatus } from './status.js';
import { CLIENTS, clientName, homes, invocation, projectDir, type ClientName, type Plan, type Target } from './target.js';

const envLines = (env: Record<string, string>): string[] => Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`);

const envLinesNote = (client: string, env: Record<string, string>): string[] =>
  Object.keys(env).length === 0
    ? []
    : ['', `${client} reads these from the environment only: add them to your shell's profile (e.g. ~/.profile) and start a new shell:`, ...envLines(env)];

/** The person's own configuration, written (or shown, or undone). */
function personal(ctx: CommandContext, client: ClientName): number {
  const { url, key } = ctx.connection();
  const project = projectDir(flag(ctx, 'project'));
  const target: Target = { scope: project ? 'project' : 'user', url, key, orgctl: invocation(), ...homes(ctx.env), ...(project ? { project } : {}) };
  const { edits, env, notes = [] }: Plan = planOf(client, target);
  const undo = ctx.values.remove === true;
  const records = readRecords(ctx.env);
  const changes = plan(edits, client, records, undo);
  const envNote = undo ? [] : [...(notes.length > 0 ? ['', ...notes] : []), ...envLinesNote(client, env)];
  if (ctx.values.print === true) {
    process.stdout.write(`${[...preview(changes), ...envNote].join('\n')}\n`);
    return 0;
  }
  const lines = write(changes, records, undo);
  writeRecords(ctx.env, records);
  process.stdout.write(`${[...lines, ...envNote].join('\n')}\n`);
  return 0;
}

const makeManagedKey = (principalId: string): string => `orgctl keys create --principal-id ${principalId} --scopes ${MANAGED_SCOPES.join(',')}`;

/** The organization's variant, printed for device management: a service account's key and the person's email as a placeholder. */
async function managed(ctx: CommandContext, client: ClientName): Promise<number> {
  const stored = readClientConfig(ctx.env);
  const key = flag(ctx, 'key') || ctx.env.ORGCTL_API_KEY;
  const url = flag(ctx, 'url') || ctx.env.ORGCTL_URL || stored?.url;
  if (!key) throw new UsageError(`--managed needs a service account key: --key KEY or ORGCTL_API_KEY (${makeManagedKey('ID')}), never your own.`);
  if (!url) throw new UsageError('No service address: pass --url, set ORGCTL_URL or run orgctl login.');
  if (stored && key === stored.key)
    throw new UsageError(`That is the key you logged in with: managed settings need a service account key (${makeManagedKey('ID')}).`);
  // Only an owner's or manager's key attributes records by user.email (docs/otlp.md): a person's key would make everyone's records theirs.
  const api = createApiClient({ url, key, timeoutMs: 30_000 });
  const me = await unwrap(api.GET('/api/v0/me'));
  if (me.kind !== 'service_account')
    throw new UsageError(`That key is ${me.email ?? me.name}'s own: managed settings need a service account key (${makeManagedKey('ID')}).`);
  if (me.role !== 'owner' && me.role !== 'manager')
    throw new UsageError(`The service account ${me.name} is a ${me.role}: its records stay its own whatever user.email says. Give it the manager role.`);
  // Every user of a managed machine can read these files: the key in them may do what the hooks and exporters do, and nothing more.
  if (!isManagedScopeSet(me.scopes))
    throw new UsageError(
      `That key has the scopes ${(me.scopes as string[] | undefined)?.join(', ') ?? 'full'}: anyone who reads the managed settings could use it for more than the hooks and exporters need. ` +
        `Managed settings need a key with exactly the scopes ${MANAGED_SCOPES.join(', ')}: ${makeManagedKey(me.principalId)} (then revoke this one if nothing else uses it).`,
    );
  const email = flag(ctx, 'email') ?? '$USER_EMAIL';
  const { unreachable } = await unwrap(api.GET('/api/v0/organization/usage/enforcement'));
  const target: Target = { scope: 'managed', url: url.replace(/\/+$/, ''), key, orgctl: 'orgctl', email, unreachable, ...homes(ctx.env) };
  const { edits, env } = planOf(client, target);
  const out = [
    `# orgctl connect ${client} --managed: files for device management. Fill ${email} with each person's email;`,
    '# orgctl must be on the PATH of the machines (the hooks run `orgctl guard`).',
    '',
  ];
  for (const edit of edits) {
    const doc = apply({}, edit, client, emptyRecord(true));
    out.push(`# ${edit.file}`, render({ file: edit.file, format: edit.format, text: undefined, doc }, doc).trimEnd(), '');
  }
  if (Object.keys(env).length > 0)
    out.push("# The system's environment (e.g. /etc/environment or a profile.d script):", ...envLines(env).map((l) => l.replace(/^export /, '')));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

export const connect: ApiCommand = {
  name: 'connect',
  summary: "Connect an agent client (its telemetry to orgctl with your key, the usage-limit hooks): writes the client's own settings (docs/connect.md).",
  positionals: [{ name: 'CLIENT', description: `${CLIENTS.join(', ')}`, optional: true }],
  flags: {
    project: { type: 'string', value: 'DIR', description: "Write the repository's files instead of your user settings" },
    print: { type: 'boolean', description: 'Show what would be written, write nothing' },
    remove: { type: 'boolean', description: 'Undo what connect wrote (the other keys stay as they are)' },
    status: { type: 'boolean', description: 'Per client: connected or not, and when its last export arrived' },
    managed: { type: 'boolean', description: "Print the organization-wide variant for device management (a service account's --key)" },
    email: { type: 'string', value: 'TEXT', description: "With --managed: the placeholder of the person's email (default $USER_EMAIL)" },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    if (ctx.values.status === true) return connectStatus(ctx);
    const client = clientName(ctx.positionals[0]);
    if (ctx.values.managed === true) return await managed(ctx, client);
    return personal(ctx, client);
  },
};
