import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { pinnedInvocation } from '../../src/automations/address-pin.js';
import { PlainGitHost } from '../../src/automations/plain-git-host.js';
import { resolveTarget, type RepoTarget } from '../../src/automations/repo-target.js';
import { AppError } from '../../src/core/http/errors.js';

// `.test` names resolve nowhere (RFC 6761), so git can reach one only through the pinned address.
const HOST = 'git.pin.test';
const PUBLIC = '203.0.113.7';
const policy = { hosts: new Map([[HOST, 'git' as const]]), allowPrivateNetwork: false, resolve: async () => [PUBLIC] };
const change = {
  files: [{ action: 'create' as const, path: '.github/workflows/ci.yml', content: 'on: push\n' }],
  branch: 'ci/x',
  title: 't',
  description: 'd',
  baseBranch: 'main',
};

async function gitTarget(url: string) {
  const target = await resolveTarget(url, policy);
  if (target.kind !== 'git') throw new Error('expected a plain Git target');
  return target;
}

async function failureOf(target: Extract<RepoTarget, { kind: 'git' }>): Promise<string> {
  const host = new PlainGitHost({ workDir: tmpdir(), timeoutMs: 3000, author: { name: 'bot', email: 'bot@orgctl.test' } });
  const error = await host.apply(target, change).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).message;
}

describe('git connects to the address the guard checked, never resolving the name again', () => {
  it('HTTPS: curl is given the checked address for the name and port', async () => {
    const target = await gitTarget(`https://${HOST}/acme/app.git`);
    expect(target.pin).toEqual({ host: HOST, port: 443, scheme: 'https', addresses: [PUBLIC] });
    expect(pinnedInvocation(target.pin).config).toEqual(['-c', `http.curloptResolve=${HOST}:443:${PUBLIC}`]);
    expect(await failureOf(target)).not.toMatch(/could not resolve/i);
  });

  it('HTTP with a port, and IPv6 addresses in brackets', async () => {
    const target = await resolveTarget(`http://${HOST}:8080/acme/app.git`, { ...policy, resolve: async () => [PUBLIC, '2001:db8::7'] });
    expect(target.kind === 'git' && pinnedInvocation(target.pin).config).toEqual(['-c', `http.curloptResolve=${HOST}:8080:${PUBLIC},[2001:db8::7]`]);
  });

  it('SSH: ssh connects to the address and checks the host key under the name', async () => {
    const target = await gitTarget(`git@${HOST}:acme/app.git`);
    expect(pinnedInvocation(target.pin).env.GIT_SSH_COMMAND).toBe(`ssh -o BatchMode=yes -o HostName=${PUBLIC} -o HostKeyAlias=${HOST}`);
    expect(await failureOf(target)).not.toMatch(/could not resolve/i);
  });

  it('git://: the address is written into the URL git is given; errors still show the URL as written', async () => {
    const target = await gitTarget(`git://${HOST}/acme/app.git`);
    expect(target.pushUrl).toBe(`git://${PUBLIC}:9418/acme/app.git`);
    expect(target.displayUrl).toBe(`git://${HOST}/acme/app.git`);
    expect(pinnedInvocation(target.pin)).toEqual({ config: [], env: {} });
  });

  it('an IP literal, or a server that allows private networks, needs no pin', async () => {
    const literal = await resolveTarget(`https://${PUBLIC}/acme/app.git`, { ...policy, hosts: new Map([[PUBLIC, 'git' as const]]) });
    expect(literal.kind === 'git' && pinnedInvocation(literal.pin)).toEqual({ config: [], env: {} });
    const open = await resolveTarget(`https://${HOST}/acme/app.git`, { ...policy, allowPrivateNetwork: true });
    expect(open.kind === 'git' && open.pin).toBeUndefined();
  });

  it('a name that resolves to nothing is refused before git runs', async () => {
    await expect(resolveTarget(`https://${HOST}/acme/app.git`, { ...policy, resolve: async () => [] })).rejects.toMatchObject({ status: 502 });
  });
});
