import { ApiError, unwrap, type OrgctlClient } from '../../client/api-client.js';
import type { components } from '../../client/openapi-types.js';
import { flag, integerFlag, type ApiCommand, type CommandContext, type FlagSpec } from './command.js';
import { followComputer } from './follow-computer.js';
import { fields, printList, printObject, when } from './print.js';

type Computer = components['schemas']['Computer'];

/** A computer by name, else by id (names cannot contain `/`, ids are what the API gave). */
async function findComputer(api: OrgctlClient, nameOrId: string): Promise<Computer> {
  try {
    return await unwrap(api.GET('/api/v0/computers/name/{name}', { params: { path: { name: nameOrId } } }));
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
  }
  return unwrap(api.GET('/api/v0/computers/{computerId}', { params: { path: { computerId: nameOrId } } }));
}

const target = [{ name: 'COMPUTER', description: "The computer's name or id" }];

/** The line that starts the host agent of a byom computer, with the key left for the user to fill in. */
// The key travels in the environment: on the command line, every user of the machine sees it (ps).
const agentLine = (ctx: CommandContext, c: Computer) =>
  `ORGCTL_API_KEY=<API key> orgctl agent --url ${ctx.connection().url} --computer ${JSON.stringify(c.name)}`;

/** The service hands out its own package (GET /download/orgctl.tgz), so no public registry is needed. */
const installLine = (ctx: CommandContext) => `npm install -g ${ctx.connection().url}/download/orgctl.tgz`;

function describe(ctx: CommandContext, c: Computer): string[] {
  const lines = fields([
    ['id', c.id],
    ['name', c.name],
    ['provider', c.providerType],
    ['status', c.status],
    ['created', when(c.createdAt)],
    ['host', c.hostname ? `${c.hostname} (${c.hostId ?? ''})` : c.hostId],
    ['remote user', c.remoteUser],
    ['repositories', c.clonedRepoDirectories?.join(', ')],
  ]);
  const steps = c.provisioningSteps ?? [];
  if (steps.length) {
    lines.push('', 'Steps:');
    for (const s of steps) {
      // A failure's message is whole: the reason (git's "Could not resolve host …") is on its last lines.
      const [first, ...more] = (s.error ?? '').split('\n').filter((l) => l.trim() !== '');
      lines.push(`  ${s.status.padEnd(9)} ${s.name} (${s.id})${first ? `: ${first}` : ''}`, ...more.map((l) => `            ${l.trim()}`));
    }
  }
  if (c.providerType === 'byom') lines.push('', 'Host agent (run on the machine):', `  ${installLine(ctx)}`, `  ${agentLine(ctx, c)}`);
  return lines;
}

const followFlags: Record<string, FlagSpec> = {
  follow: {
    type: 'boolean',
    description: 'Stream the steps and their output until the computer settles; exit 0 succeeded, 1 failed, 4 still running at --timeout',
  },
  timeout: { type: 'string', value: 'SECONDS', description: 'With --follow: stop waiting after this long (default: no limit)' },
};

async function follow(ctx: CommandContext, c: Computer, steps?: string[]): Promise<number> {
  const timeout = integerFlag(ctx, 'timeout');
  const result = await followComputer({
    api: ctx.api(),
    computerId: c.id,
    steps,
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    waitingHint: c.providerType === 'byom' ? `Waiting for the host agent. On the machine, run:\n  ${installLine(ctx)}\n  ${agentLine(ctx, c)}` : undefined,
  });
  if (ctx.output === 'json') process.stdout.write(`${JSON.stringify(result.computer)}\n`);
  if (result.settled === 'timeout') {
    process.stderr.write(`${c.name} is still provisioning after ${timeout} s; it goes on (orgctl computers get ${c.name}).\n`);
    return 4;
  }
  if (result.settled === 'succeeded') process.stderr.write(`${c.name} is ready.\n`);
  else {
    const failed = result.computer.provisioningSteps?.find((s) => s.status === 'failed');
    // The reason a command gives is its last line (git's "fatal: … Could not resolve host …"); the whole message is in the step's line above.
    const reason = failed?.error
      ?.split('\n')
      .filter((l) => l.trim() !== '')
      .pop();
    process.stderr.write(`${c.name} failed${failed ? ` at ${failed.name} (${failed.id})` : ''}${reason ? `: ${reason.trim()}` : '; see the steps above.'}\n`);
  }
  return result.settled === 'succeeded' ? 0 : 1;
}

export const computersList: ApiCommand = {
  name: 'computers list',
  summary: 'The computers of the organization.',
  flags: { 'host-id': { type: 'string', value: 'ID', description: 'Only the computers of this host' } },
  outputs: ['table', 'json', 'csv'],
  async run(ctx) {
    const hostId = flag(ctx, 'host-id');
    const body = await unwrap(ctx.api().GET('/api/v0/computers', { params: { query: hostId ? { hostId } : {} } }));
    const rows =
      ctx.output === 'table'
        ? body.computers.map((c) => ({
            name: c.name,
            id: c.id,
            provider: c.providerType,
            status: c.status ?? '',
            host: c.hostname ?? '',
            created: when(c.createdAt),
          }))
        : (body.computers as Record<string, unknown>[]);
    printList(ctx, body, rows);
    return 0;
  },
};

export const computersGet: ApiCommand = {
  name: 'computers get',
  summary: 'A computer: its state, its steps, and for byom the `orgctl agent` line to run on the machine.',
  positionals: target,
  outputs: ['table', 'json'],
  async run(ctx) {
    const c = await findComputer(ctx.api(), ctx.positionals[0] as string);
    printObject(ctx, c, describe(ctx, c));
    return 0;
  },
};

export const computersCreate: ApiCommand = {
  name: 'computers create',
  summary: 'Create a computer (byom: your machine, running `orgctl agent`; e2b: a sandbox) that clones the repositories and installs their dependencies.',
  positionals: [{ name: 'NAME', description: 'Unique in the organization: 1 to 63 characters, no `/`' }],
  flags: {
    provider: { type: 'string', value: 'PROVIDER', choices: ['byom', 'e2b'], description: 'Where it runs (default byom)' },
    repo: { type: 'string', value: 'URL', multiple: true, description: 'A Git repository to clone (up to 20)' },
    'no-install-deps': { type: 'boolean', description: 'Clone only; do not install dependencies' },
    'host-id': { type: 'string', value: 'ID', description: 'byom: the host id of the machine (else the first agent to register takes it)' },
    'remote-user': { type: 'string', value: 'USER', description: 'The OS user clients work as' },
    template: { type: 'string', value: 'ID', description: 'e2b: the sandbox template' },
    'service-account-id': { type: 'string', value: 'ID', description: 'A service account that becomes the owner' },
    ...followFlags,
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const str = (n: string) => flag(ctx, n);
    const provider = str('provider') as 'byom' | 'e2b' | undefined;
    const repos = (ctx.values.repo as string[] | undefined) ?? [];
    const c = await unwrap(
      ctx.api().POST('/api/v0/computers', {
        body: {
          name: ctx.positionals[0] as string,
          ...(provider ? { provider } : {}),
          ...(repos.length ? { repos } : {}),
          ...(ctx.values['no-install-deps'] ? { autoInstallDeps: false } : {}),
          ...(str('host-id') ? { hostId: str('host-id') } : {}),
          ...(str('remote-user') ? { remoteUser: str('remote-user') } : {}),
          ...(str('template') ? { source: { kind: 'template' as const, templateId: str('template') as string } } : {}),
          ...(str('service-account-id') ? { serviceAccountId: str('service-account-id') } : {}),
        },
      }),
    );
    if (ctx.values.follow) {
      process.stderr.write(`Created ${c.name} (${c.id}).\n`);
      return follow(ctx, c);
    }
    printObject(ctx, c, [`Created ${c.name}.`, '', ...describe(ctx, c)]);
    return 0;
  },
};

export const computersRename: ApiCommand = {
  name: 'computers rename',
  summary: 'Give a computer a new name.',
  positionals: [...target, { name: 'NEW_NAME', description: 'The new name' }],
  outputs: ['table', 'json'],
  async run(ctx) {
    const c = await findComputer(ctx.api(), ctx.positionals[0] as string);
    const renamed = await unwrap(
      ctx.api().PATCH('/api/v0/computers/{computerId}', { params: { path: { computerId: c.id } }, body: { name: ctx.positionals[1] as string } }),
    );
    printObject(ctx, renamed, [`Renamed ${c.name} to ${renamed.name}.`]);
    return 0;
  },
};

export const computersDelete: ApiCommand = {
  name: 'computers delete',
  summary: 'Delete a computer (an e2b sandbox is ended; a byom machine keeps its files).',
  positionals: target,
  outputs: ['table', 'json'],
  async run(ctx) {
    const c = await findComputer(ctx.api(), ctx.positionals[0] as string);
    await unwrap(ctx.api().DELETE('/api/v0/computers/{computerId}', { params: { path: { computerId: c.id } } }));
    printObject(ctx, { id: c.id, name: c.name, deleted: true }, [`Deleted ${c.name}.`]);
    return 0;
  },
};

export const computersInstallDeps: ApiCommand = {
  name: 'computers install-deps',
  summary: 'Install the dependencies of the cloned repositories again (409 while an install is running).',
  positionals: target,
  flags: followFlags,
  outputs: ['table', 'json'],
  async run(ctx) {
    const c = await findComputer(ctx.api(), ctx.positionals[0] as string);
    const started = await unwrap(ctx.api().POST('/api/v0/computers/{computerId}/install-deps', { params: { path: { computerId: c.id } } }));
    const step = started.provisioningSteps?.find((s) => s.id === 'install-dependencies');
    if (ctx.values.follow) {
      process.stderr.write(`Installing dependencies on ${c.name}${step?.installSessionId ? ` (session ${step.installSessionId})` : ''}.\n`);
      return follow(ctx, started, ['install-dependencies']);
    }
    printObject(ctx, started, [
      `Installing dependencies on ${c.name}${step?.installSessionId ? ` (session ${step.installSessionId})` : ''}. Follow with: orgctl computers get ${c.name}`,
    ]);
    return 0;
  },
};

export const computersCommands = [computersList, computersGet, computersCreate, computersRename, computersDelete, computersInstallDeps];
