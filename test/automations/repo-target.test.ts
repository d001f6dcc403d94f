import { describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/automations/repo-target.js';

const policy = { hosts: new Map([['git.acme.test', 'git' as const]]), allowPrivateNetwork: true };

describe('CI automation: a repository URL with credentials', () => {
  it.each([
    ['https://deploy:TOKEN-t1@git.acme.test/acme/api.git', 'https://git.acme.test/acme/api.git'],
    ['https://TOKEN-t2@git.acme.test:8443/acme/api', 'https://git.acme.test:8443/acme/api'],
    ['ssh://git:TOKEN-t3@git.acme.test/acme/api', 'ssh://git@git.acme.test/acme/api'],
  ])('%s pushes with its credentials and is stored and shown as %s', async (repoUrl, shown) => {
    const target = await resolveTarget(repoUrl, policy);
    expect(target.kind).toBe('git');
    if (target.kind !== 'git') return;
    // The one place the secret stays: the URL git pushes to, never stored or answered.
    expect(target.pushUrl).toBe(repoUrl);
    expect(target.displayUrl).toBe(shown);
    expect(target.repoId).toBe('git.acme.test/acme/api');
  });

  it('refuses javascript: with 400', async () => {
    await expect(resolveTarget('javascript:alert(1)', policy)).rejects.toMatchObject({ status: 400 });
  });
});
