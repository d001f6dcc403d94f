/**
 * The canonical id of a repository: lower-case host and path, without scheme,
 * credentials, port, trailing `/` or `.git`. `https://GitHub.com/Acme/API.git`,
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

const SCHEMES = new Set(['http', 'https', 'ssh', 'git', 'git+ssh', 'ssh+git']);
/** Schemes whose user name picks the account to log in as (`ssh://git@host/…`), which a clone needs; never a secret alone. */
const SSH_SCHEMES = new Set(['ssh', 'git+ssh', 'ssh+git']);

/**
 * The message of a 400 for text that names no repository: where it begins with a scheme that is
 * no git transport (`javascript:`, `data:`, `ftp://`), it says so.
 */
export function notARepoUrl(text: string): string {
  const general = 'must be a remote repository URL (https://host/owner/repo, ssh://host/owner/repo, git://host/owner/repo or git@host:owner/repo)';
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  return scheme !== undefined && !SCHEMES.has(scheme) && !scheme.includes('.') ? `${general}; ${scheme}: is not a scheme of a repository` : general;
}

/** A host name or bracketed IPv6 address, lower case, as repository URLs may name it. */
export const isHostName = (host: string): boolean => /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)$/.test(host);

/** A repository URL split into its parts, before any rule of the caller's. */
export interface RepoUrlParts {
  /** How the text names the repository: a URL with a scheme, scp-like `[user@]host:path`, or bare `host/path`. */
  form: 'url' | 'scp' | 'bare';
  /** The user before `@` in the scp-like form, as written. */
  user?: string;
  /** The host as written, without credentials or port. */
  host: string;
  path: string;
}

/**
 * The host (as written, without credentials or port) and the path of a repository URL: a URL
 * of a git transport (https, http, ssh, git), scp-like `[user@]host:path`, or `host/path`.
 * Undefined for anything else. The one parser of repository URL syntax; callers add their rules.
 */
export function splitRepoUrl(text: string): RepoUrlParts | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme) {
    if (!SCHEMES.has(scheme[1]!.toLowerCase())) return undefined;
    let rest = text.slice(scheme[0].length).split(/[?#]/)[0]!;
    const slash = rest.indexOf('/');
    let authority = slash === -1 ? rest : rest.slice(0, slash);
    rest = slash === -1 ? '' : rest.slice(slash);
    authority = authority.slice(authority.lastIndexOf('@') + 1);
    // A port is digits: anything else there is a password with an unencoded `/` (user:pa/ss@host).
    if (!/^(\[[^\]]*\]|[^:[\]]*)(:\d*)?$/.test(authority)) return undefined;
    return { form: 'url', host: stripPort(authority), path: rest };
  }
  // scp-like syntax: [user@]host:path (a colon before any slash). Without a user, the host must
  // hold a dot: a single word before a colon is how a URI of another scheme begins
  // (`javascript:alert(1)`, `data:…`, `mailto:…`), which a browser would follow as a link.
  const scp = /^(?:([^@/:]+)@)?([^@/:]+):(?!\/\/)(.+)$/.exec(text);
  if (scp && (scp[1] !== undefined || scp[2]!.includes('.')))
    return { form: 'scp', ...(scp[1] !== undefined ? { user: scp[1] } : {}), host: scp[2]!, path: scp[3]! };
  if (scp) return undefined;
  // Already canonical (or nearly): host/path, as a repoId filter is given.
  const bare = /^([^/@:]+)(\/.+)$/.exec(text);
  if (bare && bare[1]!.includes('.')) return { form: 'bare', host: bare[1]!, path: bare[2]! };
  return undefined;
}

function stripPort(authority: string): string {
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1);
  const colon = authority.lastIndexOf(':');
  return colon === -1 ? authority : authority.slice(0, colon);
}

/**
 * A repository URL as it may be stored, shown and logged: trimmed, without a password or token
 * (`https://user:TOKEN@host/…`, `https://TOKEN@host/…`), without query or fragment (where some
 * hosts take a token too), the rest as written. An ssh URL keeps its user name (`ssh://git@host/…`,
 * `git@host:owner/repo`): it names the account a clone logs in as, and the forges all need it.
 * `file://` URLs are cleaned alike, for the callers whose network rule allows them.
 * Undefined for text that names no repository (see splitRepoUrl): `javascript:…` among others.
 */
export function withoutCredentials(input: string): string | undefined {
  const text = input.trim();
  const isFile = /^file:\/\//i.test(text);
  if (!isFile) {
    const parts = splitRepoUrl(text);
    if (!parts) return undefined;
    if (parts.form !== 'url') return text;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)!;
  const rest = text.slice(scheme[0].length).split(/[?#]/)[0]!;
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf('@');
  const user = authority.slice(0, Math.max(at, 0)).split(':')[0]!;
  const keepUser = at !== -1 && user !== '' && SSH_SCHEMES.has(scheme[1]!.toLowerCase());
  return `${scheme[0]}${keepUser ? `${user}@` : ''}${authority.slice(at + 1)}${slash === -1 ? '' : rest.slice(slash)}`;
}
