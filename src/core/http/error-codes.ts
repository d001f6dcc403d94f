/**
 * Every machine-readable error code the service answers with (`metadata.code`), its status and
 * what it means. Clients branch on the code, never on `detail`, which is for people and may be
 * reworded. docs/errors.md lists exactly this catalogue (`npm run docs` writes it; a test compares).
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    meaning: 'The request breaks a rule of its schema or of the operation; `metadata.errors` lists each problem as `{path, message}`.',
  },
  bad_request: { status: 400, meaning: 'The request cannot be carried out as sent; `detail` says why.' },
  malformed_request: { status: 400, meaning: 'The request is not valid HTTP, its URL encoding is broken, or its body is not the JSON it claims to be.' },
  unauthenticated: { status: 401, meaning: 'The credential is missing, malformed, unknown, revoked or expired.' },
  sign_in_failed: { status: 401, meaning: 'Wrong email or password.' },
  forbidden: { status: 403, meaning: 'The credential is valid, but its role may not do this.' },
  csrf_refused: { status: 403, meaning: 'A cookie-authenticated write came from another site or without the CSRF header.' },
  sso_required: { status: 403, meaning: 'The organization requires single sign-on: only owners may still sign in with a password (break-glass).' },
  route_not_found: { status: 404, meaning: 'No route has this method and path.' },
  not_found: { status: 404, meaning: 'No such object in your organization.' },
  organization_not_found: { status: 404, meaning: 'No such organization.' },
  user_not_found: { status: 404, meaning: 'No user with this email or id in your organization.' },
  service_account_not_found: { status: 404, meaning: 'No such service account in your organization.' },
  api_key_not_found: { status: 404, meaning: 'No such API key that you may see.' },
  account_link_not_found: { status: 404, meaning: 'No such linked account id.' },
  session_not_found: { status: 404, meaning: 'No such web session of yours.' },
  invitation_not_found: { status: 404, meaning: 'No such invitation.' },
  scim_token_not_found: { status: 404, meaning: 'No such SCIM token in your organization.' },
  team_not_found: { status: 404, meaning: 'No such team in your organization (a deleted team is not found).' },
  computer_not_found: { status: 404, meaning: 'No such computer in your organization.' },
  install_session_not_found: { status: 404, meaning: 'No such install session on this computer.' },
  step_not_found: { status: 404, meaning: 'No such provisioning step on this computer.' },
  pull_request_not_found: { status: 404, meaning: 'No such recorded pull request.' },
  repository_not_found: { status: 404, meaning: 'The Git host has no such repository, or the server may not see it.' },
  branch_not_found: { status: 404, meaning: 'The repository has no such base branch (or no commits yet).' },
  workflow_not_found: { status: 404, meaning: 'The workflow file to edit or delete does not exist on the base branch.' },
  package_not_found: { status: 404, meaning: 'This service offers no package of that name.' },
  sso_not_configured: { status: 404, meaning: 'The organization has no single sign-on configuration (or no organization signs in with this email domain).' },
  method_not_allowed: { status: 405, meaning: 'The path exists with other methods; `Allow` and `metadata.allowed` list them.' },
  request_timeout: { status: 408, meaning: 'The request took too long to arrive.' },
  install_running: { status: 409, meaning: 'An install is already running on this computer; `metadata.installSessionId` names it when it is a session.' },
  step_running: { status: 409, meaning: "A provisioning step is running on the computer's current host." },
  name_taken: { status: 409, meaning: 'Another object in the organization already has this name; `metadata.field` names the field.' },
  team_managed_by_scim: { status: 409, meaning: 'The team was created by SCIM provisioning; only the identity provider renames it.' },
  email_taken: { status: 409, meaning: 'A user with this email already exists in the organization.' },
  last_owner: { status: 409, meaning: 'The change would leave the organization without an owner.' },
  setup_done: { status: 409, meaning: 'First-run setup is already done; sign in instead.' },
  already_member: { status: 409, meaning: 'The invited person is already a member.' },
  invitation_used: { status: 409, meaning: 'The invitation was already accepted.' },
  invitation_expired: { status: 409, meaning: 'The invitation expired.' },
  host_not_registered: { status: 409, meaning: 'The host agent must register before it takes work.' },
  host_mismatch: { status: 409, meaning: 'The computer is bound to another host; `metadata.hostId` names it.' },
  not_byom: { status: 409, meaning: 'The computer is provisioned by E2B, not by a host agent.' },
  lease_lost: { status: 409, meaning: 'The agent no longer holds the step (its lease expired or the step finished).' },
  workflow_exists: { status: 409, meaning: 'The workflow file already exists; use action `edit`.' },
  workflow_unchanged: { status: 409, meaning: 'The workflow file already has this content.' },
  not_a_file: { status: 409, meaning: 'The workflow path, or a directory on it, is not what it must be (a regular file, a directory).' },
  domain_taken: {
    status: 409,
    meaning: "The email domain is verified for another organization, or the operator's allow-list gives it to one; `metadata.field` names it.",
  },
  quota_reached: { status: 409, meaning: 'The organization already has as many of these as it may have; `metadata.limit` says how many. Remove one first.' },
  body_too_large: { status: 413, meaning: 'The body (or what it inflates to) is larger than the route accepts.' },
  path_too_long: { status: 414, meaning: 'A path parameter is longer than the service accepts.' },
  unsupported_media_type: {
    status: 415,
    meaning: "The body's content type or encoding is not one the route accepts; `metadata.accepts` lists the content types it takes.",
  },
  rate_limited: { status: 429, meaning: 'A request or sign-in budget is spent; `Retry-After` says when to try again.' },
  headers_too_large: { status: 431, meaning: 'The headers or the URL are larger than the service accepts.' },
  internal: { status: 500, meaning: 'A fault of the service; the log line with the same request id has the details.' },
  upstream_failed: {
    status: 502,
    meaning: 'A Git host, GitHub or E2B failed or refused; `detail` (and `metadata.gitMessage` or `metadata.githubStatus`) says how.',
  },
  database_unavailable: { status: 503, meaning: 'The database cannot serve now; nothing was stored; retry after `Retry-After` seconds.' },
  overloaded: { status: 503, meaning: 'The service is shedding load; retry after `Retry-After` seconds.' },
  unavailable: { status: 503, meaning: 'Something the request needs cannot be had now; retry after `Retry-After` seconds.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The catalogue as the Markdown table docs/errors.md holds. */
export function errorCodesTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.meaning.replaceAll('|', '\\|')} |`);
  return ['| code | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

export const CODES_START = '<!-- error codes: generated by npm run docs from the catalogue; do not edit by hand -->';
export const CODES_END = '<!-- end of error codes -->';

/** The page with its codes section replaced by the current table. */
export function withErrorCodesTable(page: string): string {
  const start = page.indexOf(CODES_START);
  const end = page.indexOf(CODES_END);
  if (start < 0 || end < start) throw new Error('docs/errors.md has no error code markers');
  return `${page.slice(0, start + CODES_START.length)}\n\n${errorCodesTable()}\n\n${page.slice(end)}`;
}
