import { internalAddressesOf, type Resolver, systemResolver } from '../core/net/network-guard.js';
import { canonicalRepoId, notARepoUrl, splitRepoUrl, withoutCredentials } from '../core/net/repo-id.js';
import type { ErrorItem } from '../core/http/errors.js';
import { systemClock } from '../core/clock.js';

const RESOLVE_TIMEOUT_MS = 2000;

/**
 * Which repository URLs a computer may clone: the rule of CI automation. A remote over https,
 * http, ssh or git (or scp-like `git@host:owner/repo`); never a transport helper (`ext::`,
 * `fd::`), which runs a command, and never, unless the server allows private networks, a
 * `file://` path or a host that is, or resolves to, a loopback, private, link-local (cloud
 * metadata) or otherwise internal address. A host that does not resolve here is accepted: the
 * machine that clones resolves it, and the agent allows git only these protocols.
 */
export async function repoProblems(repos: readonly string[], allowPrivateNetwork: boolean, resolve: Resolver = systemResolver): Promise<ErrorItem[]> {
  const problems: ErrorItem[] = [];
  await Promise.all(
    repos.map(async (repo, i) => {
      const problem = await problemOf(repo, allowPrivateNetwork, resolve);
      if (problem) problems.push({ path: `/repos/${i}`, message: problem });
    }),
  );
  return problems.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
}

async function problemOf(repo: string, allowPrivateNetwork: boolean, resolve: Resolver): Promise<string | undefined> {
  if (/^[a-z0-9+.-]+::/i.test(repo)) return 'a git transport helper (such as ext:: or fd::) is not a repository URL';
  if (/^file:\/\//i.test(repo)) return allowPrivateNetwork ? undefined : 'file:// repositories are not allowed on this server (CI_ALLOW_PRIVATE_NETWORK)';
  const parts = splitRepoUrl(repo);
  // Not the bare host/path form that canonicalRepoId also reads: git would take it for a local path.
  if (parts === undefined || parts.form === 'bare' || canonicalRepoId(repo) === undefined) return notARepoUrl(repo);
  if (allowPrivateNetwork) return undefined;
  const host = parts.host;
  let internal: string[];
  try {
    // A resolver that does not answer in time is treated as one that found nothing. The resolver
    // answers in real time, whatever the service's clock says: the wait is the system clock's.
    internal = await Promise.race([internalAddressesOf(host, resolve), systemClock.sleep(RESOLVE_TIMEOUT_MS, { keepAlive: false }).then(() => [])]);
  } catch {
    return undefined;
  }
  return internal.length > 0 ? `host ${host} is an internal address (${internal[0]}); allowed only with CI_ALLOW_PRIVATE_NETWORK` : undefined;
}

/**
 * The repository URLs a computer keeps: without credentials (withoutCredentials). They show in
 * the computer, its clone log and to whoever may list it; a clone authenticates with the
 * machine's own git credentials (credential helper, ssh key and login) instead. Call after repoProblems.
 */
export const storedRepos = (repos: readonly string[]): string[] => repos.map((r) => withoutCredentials(r) ?? r);
