import { connect } from '../connect/command.js';
import { accountCommands } from './account-commands.js';
import { analyticsCommands } from './analytics-commands.js';
import { ciCommands } from './ci-commands.js';
import type { ApiCommand } from './command.js';
import { computersCommands } from './computers-commands.js';
import { keysApiCommands } from './keys-commands.js';
import { limitsCommands } from './limits-commands.js';
import { readinessCommands } from './readiness-commands.js';
import { scimCommands } from './scim-commands.js';
import { teamsCommands } from './teams-commands.js';
import { ssoCommands } from './sso-commands.js';
import { alertsCommands } from './alerts-commands.js';
import { webhooksCommands } from './webhooks-commands.js';
import { login, logout, me, meUpdate } from './session-commands.js';

/** Every command that works over the API, `gh`-style, in the order `orgctl --help` lists them. */
export const apiCommands: readonly ApiCommand[] = [
  login,
  logout,
  me,
  meUpdate,
  connect,
  ...analyticsCommands,
  ...limitsCommands,
  ...accountCommands,
  ...teamsCommands,
  ...ssoCommands,
  ...scimCommands,
  ...alertsCommands,
  ...webhooksCommands,
  ...keysApiCommands,
  ...computersCommands,
  ...readinessCommands,
  ...ciCommands,
];
