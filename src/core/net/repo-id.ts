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
    return { form: 'url', host: stripPort(authority), path: rest };
  }
  // scp-like syntax: [user@]host:path (a colon before any slash).
  const scp = /^(?:([^@/:]+)@)?([^@/:]+):(?!\/\/)(.+)$/.exec(text);
  if (scp) return { form: 'scp', ...(scp[1] !== undefined ? { user: scp[1] } : {}), host: scp[2]!, path: scp[3]! };
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
