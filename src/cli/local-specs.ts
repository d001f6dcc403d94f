import { PLANS } from '../core/http/rate-limit-plans.js';
import { ROLES } from '../core/identity/roles.js';
import type { CommandSpec, FlagSpec } from './model.js';

/**
 * The model's commands that run on this machine: database administration (they get the service's
 * settings), the host agent and the hooks runner. `overApi` marks the names that also exist over
 * the API (cli/api/registry.ts): those run over the API when a service is configured, and here with
 * `--local`. Plain data: main.ts reads it for every command, the hooks runner's included.
 */
export interface LocalSpec extends CommandSpec {
  /** Needs no server settings (and must not fail on them): the agent and the hooks runner. */
  client?: boolean;
  overApi?: boolean;
}

const orgId = { 'org-id': { type: 'string', value: 'ID', description: 'The organization (needed only when the database holds several)' } } as const;
const json = { json: { type: 'boolean', description: 'Print the result as JSON' } } as const;
const email = (description: string) => ({ email: { type: 'string', value: 'EMAIL', required: true, description } }) as const;
const role = { role: { type: 'string', value: 'ROLE', choices: ROLES, required: true, description: 'The role' } } as const;
const hookFiles = {
  config: { type: 'string', value: 'FILE', multiple: true, description: 'A hook configuration file (default: the user and project files)' },
  cwd: { type: 'string', value: 'DIR', description: 'The project directory (default: the current one)' },
} as const;

export const LOCAL = {
  serve: {
    name: 'serve',
    summary: 'Migrate the database and start the HTTP service (PORT, HOST, DATA_DIR or DATABASE_URL).',
    flags: { demo: { type: 'boolean', description: 'On a first start, also seed demo telemetry (12 users, 60 days)' } },
  },
  migrate: { name: 'migrate', summary: 'Apply pending database migrations and say which.', flags: json },
  init: {
    name: 'init',
    summary: 'Create an organization, its owner and an owner API key (printed once).',
    flags: {
      org: { type: 'string', value: 'NAME', required: true, description: 'The organization name' },
      'owner-email': { type: 'string', value: 'EMAIL', required: true, description: "The owner's email" },
      ...json,
    },
  },
  usersAdd: {
    name: 'users add',
    summary: 'Add a user to an organization.',
    flags: { ...email('The new user'), ...role, name: { type: 'string', value: 'NAME', description: 'Their display name' }, ...orgId, ...json },
  },
  usersList: {
    name: 'users list',
    summary: 'The users and service accounts, with their roles and working keys.',
    overApi: true,
    flags: { ...orgId, ...json },
  },
  usersSetRole: {
    name: 'users set-role',
    summary: "Change a user's role; their keys act with it at once (the last owner stays owner).",
    flags: { ...email('The user'), ...role, ...orgId, ...json },
  },
  usersInvite: {
    name: 'users invite',
    summary: 'Print a one-time web app link (valid 7 days) that lets the person set their password and sign in.',
    flags: { ...email('The person to invite'), ...role, ...orgId, ...json },
  },
  usersRemove: {
    name: 'users remove',
    summary: 'Remove a user and their keys (not the last owner); their telemetry stays in analytics.',
    flags: { ...email('The user'), ...orgId, ...json },
  },
  keysCreate: {
    name: 'keys create',
    summary: 'Issue an API key for a user (--email) or service account (--principal-id); printed once.',
    overApi: true,
    flags: {
      email: { type: 'string', value: 'EMAIL', description: 'The user the key is for' },
      'principal-id': { type: 'string', value: 'ID', description: 'The user or service account the key is for (names its organization)' },
      name: { type: 'string', value: 'NAME', description: 'A name to tell the key apart' },
      scopes: {
        type: 'string',
        value: 'LIST',
        description:
          'Narrow the key to these scopes, comma-separated: telemetry:write, allowance:read, sessions:attribute (a managed install needs all three); default full',
      },
      ...orgId,
      ...json,
    },
  },
  keysList: {
    name: 'keys list',
    summary: 'Key metadata (prefix, holder, state, created, last used), never secrets.',
    overApi: true,
    flags: { email: { type: 'string', value: 'EMAIL', description: 'Only the keys of this user' }, ...orgId, ...json },
  },
  keysRevoke: {
    name: 'keys revoke',
    summary: "Revoke a key (any organization's: a key id names it); it authenticates nothing from now on.",
    overApi: true,
    positionals: [{ name: 'KEY_ID', description: 'The id of the key (orgctl keys list)' }],
    flags: json,
  },
  orgsList: { name: 'orgs list', summary: 'The organizations, with how many users and service accounts each has.', flags: json },
  orgsSetPlan: {
    name: 'orgs set-plan',
    summary: 'The request rates of the organization (docs/rate-limits.md).',
    flags: { plan: { type: 'string', value: 'PLAN', choices: PLANS, required: true, description: 'The plan' }, ...orgId, ...json },
  },
  serviceAccountsAdd: {
    name: 'service-accounts add',
    summary: 'Add a service account (give it a key with keys create --principal-id).',
    flags: {
      name: { type: 'string', value: 'NAME', required: true, description: 'The service account' },
      role: { type: 'string', value: 'ROLE', choices: ['manager', 'member'], required: true, description: 'Its role' },
      ...orgId,
      ...json,
    },
  },
  ssoVerifyDomain: {
    name: 'sso verify-domain',
    summary: "Verify an organization's claim of an email domain with the token its owners were shown; from then on the domain signs in there.",
    positionals: [{ name: 'DOMAIN', description: 'The email domain, such as acme.com' }],
    flags: {
      token: { type: 'string', value: 'TOKEN', required: true, description: 'The verification token of the claim (orgctl sso get, or the web app)' },
      ...json,
    },
  },
  openapi: { name: 'openapi', summary: 'Print the OpenAPI document.', flags: {} },
  demoSeed: {
    name: 'demo seed',
    summary: 'Add N demo users and D days of their telemetry, ending yesterday (UTC).',
    flags: {
      users: { type: 'string', value: 'N', required: true, description: 'How many demo users (1 to 1000)' },
      days: { type: 'string', value: 'D', required: true, description: 'How many days (1 to 366)' },
      seed: { type: 'string', value: 'S', description: 'The random seed (default 1): the same seed, the same data' },
      ...orgId,
      ...json,
    },
  },
  agent: {
    name: 'agent',
    summary: 'Run the host agent of a byom computer on this machine (ORGCTL_URL, ORGCTL_API_KEY).',
    client: true,
    flags: {
      url: { type: 'string', value: 'URL', required: true, description: 'The service address (default: ORGCTL_URL)' },
      key: { type: 'string', value: 'KEY', required: true, description: 'The API key (default: ORGCTL_API_KEY)' },
      computer: { type: 'string', value: 'NAME', required: true, description: 'The computer this machine is' },
      workdir: { type: 'string', value: 'DIR', description: 'Where the repositories are cloned (default ~/orgctl-computers)' },
    },
  },
  hooksRun: {
    name: 'hooks run',
    summary: 'Run the hooks of an event and print the result; exit 0 continue, 2 blocked, 1 error.',
    client: true,
    positionals: [{ name: 'EVENT', description: 'The agent event (docs/hooks.md)' }],
    flags: {
      ...hookFiles,
      'session-id': { type: 'string', value: 'ID', description: 'The agent session' },
      message: { type: 'string', value: 'TEXT', description: 'The prompt or notification text' },
      reason: { type: 'string', value: 'TEXT', description: 'Why the session ends' },
      'tool-name': { type: 'string', value: 'NAME', description: 'The tool (required for tool events)' },
      'stop-hook-active': { type: 'boolean', description: 'A stop hook is already running' },
      client: { type: 'string', value: 'CLIENT', choices: ['non-interactive-cli', 'terminal-ui'], description: 'The client (default non-interactive-cli)' },
    },
  },
  hooksValidate: { name: 'hooks validate', summary: 'Check the hook configuration files.', client: true, flags: { ...hookFiles, ...json } },
  hooksList: {
    name: 'hooks list',
    summary: 'Show what would run for each event.',
    client: true,
    flags: { ...hookFiles, 'tool-name': { type: 'string', value: 'NAME', description: 'Only the hooks that match this tool' }, ...json },
  },
  guard: {
    name: 'guard',
    summary: "The usage-limit hook of an agent client: blocks (exit 2) when the person's allowance is spent, warns at thresholds (docs/guard.md).",
    client: true,
    positionals: [
      {
        name: 'EVENT',
        description:
          "prompt, session-start or tool (the hook event), status-line (a line for Claude Code), or repository (at SessionStart: the session's repository)",
      },
    ],
    flags: {
      client: {
        type: 'string',
        value: 'CLIENT',
        choices: ['claude-code', 'codex', 'gemini-cli', 'droid'],
        description: 'The agent client that runs the hook',
      },
      email: { type: 'string', value: 'EMAIL', description: "The person whose allowance applies (with a service account's key)" },
    },
  },
  completion: {
    name: 'completion',
    summary: 'Print a shell completion script of every command and flag (source <(orgctl completion bash)).',
    client: true,
    positionals: [{ name: 'SHELL', description: 'bash or zsh' }],
    flags: {},
  },
} as const satisfies Record<string, LocalSpec & { flags: Readonly<Record<string, FlagSpec>> }>;

export type LocalName = keyof typeof LOCAL;
