/**
 * Repository URLs: the one parser of their syntax, the canonical id built from it, and the form
 * in which one is stored, shown and logged. Neither keeps credentials, a query or a fragment.
 */

const SCHEMES = new Set(['http', 'https', 'ssh', 'git', 'git+ssh', 'ssh+git']);
const SSH_SCHEMES = new Set(['ssh', 'git+ssh', 'ssh+git']);
/**
 * The one user name a kept URL may carry: the ssh login of the forges (GitHub, GitLab, Bitbucket,
 * Azure DevOps: `git@github.com:…`). A clone needs it and it is nobody's secret; any other user
 * name may be a token (`ghp_…@github.com:…`), so it goes, and the machine that clones names its
 * login itself (`~/.ssh/config`).
 */
const KEPT_USER = 'git';
/** Whether user information keeps its user name, KEPT_USER, once its password is gone. */
const keepsUser = (userinfo: string | undefined): boolean => userinfo?.split(':')[0] === KEPT_USER;

/** A host name or bracketed IPv6 address, lower case, as repository URLs may name it. */
export const isHostName = (host: string): boolean => /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)$/.test(host);

/** A repository URL split into its parts, before any rule of the caller's. */
export interface RepoUrlParts {
  /** How the text names the repository: a URL with a scheme, scp-like `[user@]host:path`, or bare `host/path`. */
  form: 'url' | 'scp' | 'bare';
  /** The URL form's scheme, as written. */
  scheme?: string;
  /** Everything before the host's `@`, as written: a user name, `user:password`, a token. */
  userinfo?: string;
  /** The host as written, without credentials or port. */
  host: string;
  /** The URL form's port with its colon (`:22`), as written; '' without one. */
  port: string;
  /** The path, without query or fragment. */
  path: string;
  /** The query and fragment as written (`?private_token=…#top`); '' without them. */
  suffix: string;
}

/**
 * The parts of a repository URL: a URL of a git transport (https, http, ssh, git), scp-like
 * `[userinfo@]host:path`, or bare `[userinfo@]host/path`, each with an optional query and
 * fragment. Undefined for anything else, and for a URL that names no path. The one parser of
 * repository URL syntax; callers add their rules.
 */
export function splitRepoUrl(text: string): RepoUrlParts | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme) return SCHEMES.has(scheme[1]!.toLowerCase()) ? splitUrl(text, scheme[1]!) : undefined;
  const { main, suffix } = splitSuffix(text);
  // The user information ends at the last `@` before the path: a password may hold `@` or `:`.
  const slash = main.indexOf('/');
  const at = (slash === -1 ? main : main.slice(0, slash)).lastIndexOf('@');
  const userinfo = at === -1 ? undefined : main.slice(0, at);
  const m = /^([^@/:]+)(?::(?!\/\/)(.+)|(\/.+))$/.exec(main.slice(at + 1));
  if (!m) return undefined;
  const host = m[1]!;
  const kept = userinfo === undefined ? {} : { userinfo };
  // A host holds a dot unless the kept user name is written: a single word before a colon is how a
  // URI of another scheme begins (`javascript:alert(1)`, `data:…`), which a browser would follow as
  // a link, and text that loses its user name (`x@javascript:…`) must not become one.
  if (!host.includes('.') && !(m[2] !== undefined && keepsUser(userinfo))) return undefined;
  if (m[2] !== undefined) return { form: 'scp', ...kept, host, port: '', path: m[2], suffix };
  return { form: 'bare', ...kept, host, port: '', path: m[3]!, suffix };
}

function splitUrl(text: string, scheme: string): RepoUrlParts | undefined {
  const { main, suffix } = splitSuffix(text.slice(scheme.length + 3));
  const slash = main.indexOf('/');
  const authority = slash === -1 ? main : main.slice(0, slash);
  const path = slash === -1 ? '' : main.slice(slash);
  const at = authority.lastIndexOf('@');
  // A port is digits: anything else there is a password with an unencoded `/`, `?` or `#` (user:pa/ss@host).
  const hostPort = /^(\[[^\]]*\]|[^:[\]]*)(:\d*)?$/.exec(authority.slice(at + 1));
  if (!hostPort || path.replace(/\/+/g, '') === '') return undefined;
  return { form: 'url', scheme, ...(at === -1 ? {} : { userinfo: authority.slice(0, at) }), host: hostPort[1]!, port: hostPort[2] ?? '', path, suffix };
}

function splitSuffix(text: string): { main: string; suffix: string } {
  const i = text.search(/[?#]/);
  return i === -1 ? { main: text, suffix: '' } : { main: text.slice(0, i), suffix: text.slice(i) };
}

/**
 * The canonical id of a repository: lower-case host and path, without scheme, user information,
 * port, query, fragment, trailing `/` or `.git`. `https://GitHub.com/Acme/API.git`,
 * `git@github.com:acme/api.git` and `ssh://git@github.com:22/acme/api` are all `github.com/acme/api`.
 * Returns undefined for text that names no remote repository.
 */
export function canonicalRepoId(input: string): string | undefined {
  const text = input.trim();
  if (text === '' || /[\s\\]/.test(text)) return undefined;
  const parts = splitRepoUrl(text);
  if (!parts) return undefined;
  const host = parts.host.toLowerCase().replace(/\.$/, '');
  if (!isHostName(host)) return undefined;
  let path = parts.path.toLowerCase().replace(/\/{2,}/g, '/');
  path = path.replace(/^\/+/, '').replace(/\/+$/, '');
  path = path.replace(/\.git$/, '').replace(/\/+$/, '');
  if (path === '' || path.split('/').some((s) => s === '.' || s === '..')) return undefined;
  return `${host}/${path}`;
}

/**
 * The message of a 400 for text that names no repository: where it begins with a scheme that is
 * no git transport (`javascript:`, `data:`, `ftp://`), it says so.
 */
export function notARepoUrl(text: string): string {
  const general = 'must be a remote repository URL (https://host/owner/repo, ssh://host/owner/repo, git://host/owner/repo or git@host:owner/repo)';
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  return scheme !== undefined && !SCHEMES.has(scheme) && !scheme.includes('.') ? `${general}; ${scheme}: is not a scheme of a repository` : general;
}

/**
 * A repository URL as it may be stored, shown and logged: trimmed, without user information
 * (`https://user:TOKEN@host/…`, `TOKEN@host:owner/repo`, `user:TOKEN@host/owner/repo`), query or
 * fragment (where some hosts take a token too), the rest as written. Of the ssh forms the user
 * name `git` alone stays (`git@github.com:owner/repo`, `ssh://git@host/…`): see KEPT_USER.
 * `file://` URLs are cleaned alike, for the callers whose network rule allows them. Undefined for
 * text that names no repository (see splitRepoUrl): `javascript:…` among others.
 */
export function withoutCredentials(input: string): string | undefined {
  const text = input.trim();
  const file = /^file:\/\//i.exec(text);
  const parts = file ? splitUrl(text, text.slice(0, 4)) : splitRepoUrl(text);
  if (!parts) return undefined;
  const { form, scheme, host, port, path } = parts;
  if (form === 'bare') return `${host}${path}`;
  if (form === 'scp') return `${keepsUser(parts.userinfo) ? `${KEPT_USER}@` : ''}${host}:${path}`;
  const keepUser = keepsUser(parts.userinfo) && SSH_SCHEMES.has(scheme!.toLowerCase());
  return `${scheme}://${keepUser ? `${KEPT_USER}@` : ''}${host}${port}${path}`;
}

/**
 * Text given as a repository URL, as it may be printed even when it names no repository (a local
 * path, a mistyped URL): withoutCredentials where the parser reads it; otherwise without anything
 * up to its last `@` (after a scheme, the scheme stays) and without query and fragment.
 */
export function shownRepoText(input: string): string {
  const clean = withoutCredentials(input);
  if (clean !== undefined) return clean;
  const text = input.trim().replace(/[?#].*$/s, '');
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  return scheme + text.slice(scheme.length).replace(/^.*@/s, '');
}
