import { UsageError } from '../../core/cli/args.js';
import { createApiClient, serviceUrl, unwrap } from '../../client/api-client.js';
import { clientConfigPath, removeClientConfig, writeClientConfig } from './client-config.js';
import { flag, type ApiCommand } from './command.js';
import { promptHidden } from './hidden-prompt.js';
import { fields, printObject } from './print.js';

export const login: ApiCommand = {
  name: 'login',
  summary:
    'Check a key against the service and store the address and key in $XDG_CONFIG_HOME/orgctl/config.json (mode ' +
    '0600) for every later command. Without --key it asks for the key without echoing it (or reads the first line ' +
    'of a pipe).',
  remote: false,
  flags: {
    url: { type: 'string', value: 'URL', description: 'The service address, e.g. https://orgctl.example.com (required)' },
    key: { type: 'string', value: 'KEY', description: 'The API key; asked for when not given' },
    'app-url': { type: 'string', value: 'URL', description: 'The application address, when readiness reports have their own port (APP_PORT)' },
    json: { type: 'boolean', description: 'Print who you are as JSON' },
  },
  async run(ctx) {
    const rawUrl = ctx.values.url;
    if (typeof rawUrl !== 'string' || rawUrl === '') throw new UsageError('Missing --url: the service address, e.g. orgctl login --url http://127.0.0.1:8080');
    let url: string;
    let appUrl: string | undefined;
    try {
      url = serviceUrl(rawUrl);
      appUrl = typeof ctx.values['app-url'] === 'string' ? serviceUrl(ctx.values['app-url']) : undefined;
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const key = typeof ctx.values.key === 'string' ? ctx.values.key : await promptHidden(`API key for ${url}: `);
    if (key === '') throw new UsageError('No API key given.');
    const me = await unwrap(createApiClient({ url, key, timeoutMs: 30_000 }).GET('/api/v0/me'));
    const file = writeClientConfig(ctx.env, { url, key, ...(appUrl ? { appUrl } : {}) });
    if (ctx.values.json) process.stdout.write(`${JSON.stringify(me)}\n`);
    else process.stdout.write(`Logged in to ${url} as ${me.email ?? me.name} (${me.role}) in ${me.organization.name}. Saved to ${file}.\n`);
    return 0;
  },
};

export const logout: ApiCommand = {
  name: 'logout',
  summary: 'Forget the stored service address and key (the key itself keeps working until revoked: `orgctl keys revoke`).',
  remote: false,
  async run(ctx) {
    const removed = removeClientConfig(ctx.env);
    process.stdout.write(removed ? `Removed ${clientConfigPath(ctx.env)}.\n` : 'Not logged in.\n');
    return 0;
  },
};

export const me: ApiCommand = {
  name: 'me',
  summary: 'Who the key belongs to: name, email, role and organization.',
  outputs: ['table', 'json'],
  async run(ctx) {
    const body = await unwrap(ctx.api().GET('/api/v0/me'));
    printObject(
      ctx,
      body,
      fields([
        ['name', body.name],
        ['email', body.email],
        ['kind', body.kind],
        ['role', body.role],
        ['organization', `${body.organization.name} (${body.organization.id})`],
        ['principal id', body.principalId],
        ['credential', body.credential.type === 'api_key' ? `API key ${body.credential.keyId ?? ''}`.trim() : 'JWT'],
        ['service', ctx.connection().url],
      ]),
    );
    return 0;
  },
};

export const meUpdate: ApiCommand = {
  name: 'me update',
  summary:
    "Change your own name or email (a user's key). The email is also your web sign-in name: sign in with the new one from now on; your keys and sessions keep working.",
  flags: {
    name: { type: 'string', value: 'NAME', description: 'Your new name' },
    email: { type: 'string', value: 'EMAIL', description: 'Your new email (unique in the organization)' },
  },
  outputs: ['table', 'json'],
  async run(ctx) {
    const name = flag(ctx, 'name');
    const email = flag(ctx, 'email');
    if (name === undefined && email === undefined) throw new UsageError('Give --name, --email or both.');
    const body = await unwrap(ctx.api().PATCH('/api/v0/me', { body: { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) } }));
    printObject(
      ctx,
      body,
      fields([
        ['name', body.name],
        ['email', body.email],
        ['role', body.role],
      ]),
    );
    return 0;
  },
};
