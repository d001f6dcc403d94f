import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('CI automation settings', () => {
  it('reads the host allow-list, the GitHub API URL and the private-network switch', () => {
    const c = loadConfig({
      CI_GIT_HOSTS: 'github.com=github, git.acme.test=git',
      GITHUB_API_URL: 'https://ghe.acme.test/api/v3',
      CI_ALLOW_PRIVATE_NETWORK: 'true',
    });
    expect(c.ciGitHosts).toBe('github.com=github, git.acme.test=git');
    expect(c.githubApiUrl).toBe('https://ghe.acme.test/api/v3');
    expect(c.ciAllowPrivateNetwork).toBe(true);
    expect(loadConfig({}).ciAllowPrivateNetwork).toBe(false);
    expect(loadConfig({}).ciGitHosts).toBe('github.com=github');
  });

  it.each([['github.com'], ['github.com=gitlab'], ['=git'], ['a=git,,b=git']])('refuses CI_GIT_HOSTS=%s at start', (value) => {
    expect(() => loadConfig({ CI_GIT_HOSTS: value })).toThrow(ConfigError);
  });
});
