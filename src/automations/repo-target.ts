import { errors } from '../core/http/errors.js';
import { pinnedUrl, type AddressPin } from './address-pin.js';
import { canonicalRepoId, isHostName, splitRepoUrl, withoutCredentials } from '../core/net/repo-id.js';
import { checkedAddresses, GuardRefusal, type Resolver } from '../core/net/network-guard.js';

export type HostKind = 'github' | 'git';

/** A repository URL the service may act on, and which host serves it. */
export type RepoTarget =
  | { kind: 'github'; host: string; owner: string; repo: string; repoId: string; displayUrl: string }
  | { kind: 'git'; host: string; pushUrl: string; protocols: string; repoId: string; displayUrl: string; pin?: AddressPin };

const DEFAULT_PORT = { https: 443, http: 80, ssh: 22, git: 9418 } as const;

export interface TargetPolicy {
  /** host (lower case) -> kind, from CI_GIT_HOSTS. */
  hosts: Map<string, HostKind>;
  allowPrivateNetwork: boolean;
  resolve?: Resolver;
}

/** Parses CI_GIT_HOSTS (`github.com=github,git.acme.test=git`). */
export function parseHostList(text: string): Map<string, HostKind> {
  const hosts = new Map<string, HostKind>();
  for (const entry of text.split(',')) {
    const [host, kind] = entry.trim().split('=');
    if (host && (kind === 'github' || kind === 'git')) hosts.set(normalHost(host), kind);
  }
  return hosts;
}

/** A host as URLs spell it (IPv6 compressed, lower case), so list entries and URLs compare equal. */
function normalHost(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname.replace(/\.$/, '');
  } catch {
    return host.toLowerCase();
  }
}

const NOT_A_REPO_URL = 'must be a repository URL (https://HOST/PATH, ssh://HOST/PATH or USER@HOST:PATH)';
const bad = (message: string) => errors.invalid([{ path: '/repoUrl', message }]);

/**
 * Decides whether the service may touch `repoUrl`, before any connection: the host must be on
 * the allow-list, and a plain-Git host must not resolve to an internal address (unless allowed).
 * file:// remotes are accepted only when private network access is explicitly allowed.
 */
export async function resolveTarget(repoUrl: string, policy: TargetPolicy): Promise<RepoTarget> {
  const url = parse(repoUrl);
  if (url.scheme === 'file') {
    if (!policy.allowPrivateNetwork) throw bad('file:// remotes are not allowed on this server (CI_ALLOW_PRIVATE_NETWORK)');
    return { kind: 'git', host: '', pushUrl: repoUrl, protocols: 'file', repoId: idOf(repoUrl, url), displayUrl: repoUrl };
  }
  const kind = policy.hosts.get(url.host);
  if (!kind) throw bad(`host ${url.host} is not on this server's list of Git hosts (CI_GIT_HOSTS)`);
  const repoId = idOf(repoUrl, url);
  if (kind === 'github') {
    const m = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(url.path);
    if (!m || m[2] === '.' || m[2] === '..') throw bad('must name a GitHub repository as https://HOST/OWNER/REPO');
    return { kind, host: url.host, owner: m[1]!, repo: m[2]!, repoId, displayUrl: `https://${url.host}/${m[1]}/${m[2]}` };
  }
  const scheme = url.scheme === 'scp' ? 'ssh' : url.scheme;
  const target = { kind, host: url.host, pushUrl: repoUrl, protocols: scheme, repoId, displayUrl: url.display } as const;
  if (policy.allowPrivateNetwork) return target;
  let addresses: string[];
  try {
    addresses = await checkedAddresses(url.host, policy);
  } catch (e) {
    if (!(e instanceof GuardRefusal)) throw e;
    if (e.internal.length > 0) throw bad(`host ${url.host} resolves to an internal address (${e.internal.join(', ')}), which this server does not connect to`);
    throw errors.badGateway(`The Git host ${url.host} could not be resolved: ${e.cause instanceof Error ? e.cause.message : 'no address'}`, undefined, e);
  }
  const pin: AddressPin = { host: url.host, port: url.port ?? DEFAULT_PORT[scheme], scheme, addresses };
  return { ...target, pushUrl: pinnedUrl(repoUrl, pin), pin };
}

/** The id a pull request's repository is stored and filtered under; 400 for a URL that is no repository URL. */
export function repoIdOf(repoUrl: string): string {
  return idOf(repoUrl, parse(repoUrl));
}

function idOf(repoUrl: string, url: ParsedUrl): string {
  return url.scheme === 'file' ? `file://${url.path}` : (canonicalRepoId(repoUrl) ?? `${url.host}${url.path}`.toLowerCase());
}

interface ParsedUrl {
  scheme: 'https' | 'http' | 'ssh' | 'git' | 'scp' | 'file';
  host: string;
  path: string;
  /** The port the URL names, if it names one. */
  port?: number;
  /** The URL without credentials, safe to store, show and log. */
  display: string;
}

function parse(text: string): ParsedUrl {
  if (/[\s\\]/.test(text) || text.startsWith('-')) throw bad('must be a repository URL without spaces');
  if (/^file:\/\//i.test(text)) {
    const path = text.slice('file://'.length);
    if (!path.startsWith('/') || path.split('/').includes('..')) throw bad('a file:// URL must hold an absolute path without ..');
    return { scheme: 'file', host: '', path, display: text };
  }
  const parts = splitRepoUrl(text);
  if (parts?.form === 'scp') {
    // git reads a colon in the path, a password or an unusual user name as something else than this names.
    if ((parts.userinfo !== undefined && !/^[A-Za-z0-9._-]+$/.test(parts.userinfo)) || parts.path.includes(':')) throw bad(NOT_A_REPO_URL);
    // git would push to a path that ends in the query as written, as the URL form refuses it.
    if (parts.suffix !== '') throw bad('must not have a query or fragment');
    const host = checkHost(parts.host);
    if (parts.path.split('/').includes('..')) throw bad('must not contain .. segments');
    return { scheme: 'scp', host, path: `/${parts.path.replace(/^\/+/, '')}`, display: withoutCredentials(text)! };
  }
  // The URL form: WHATWG URL normalises the host (IDN, IPv6) and the port as git's resolver will see them.
  // `new URL` would resolve `..` (also written %2e%2e) while git is handed the text as written.
  const rawPath = text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/, '').replace(/%2e/gi, '.');
  if (rawPath.split('/').some((segment) => segment === '..' || segment === '.')) throw bad('must not contain . or .. segments');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad(NOT_A_REPO_URL);
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme !== 'https' && scheme !== 'http' && scheme !== 'ssh' && scheme !== 'git') throw bad(`the scheme ${scheme}: is not supported`);
  if (url.search || url.hash) throw bad('must not have a query or fragment');
  if (url.pathname === '/' || url.pathname === '') throw bad('must name a repository path');
  const host = checkHost(url.hostname);
  // Stored with the pull request and shown: core's parser leaves the credentials out (pushUrl keeps them to push).
  const display = withoutCredentials(text) ?? `${scheme}://${url.host}${url.pathname}`;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw bad('has a malformed percent-encoding');
  }
  return { scheme, host, path, display, port: url.port ? Number(url.port) : undefined };
}

function checkHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (!isHostName(h)) throw bad(`host ${host} is not a valid host name`);
  return h;
}
