import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalRepoId, shownRepoText, splitRepoUrl, withoutCredentials } from '../../src/core/net/repo-id.js';
import { githubRepoOf } from '../../src/readiness/evaluate/forge.js';

describe('canonical repoId', () => {
  it.each([
    ['https://github.com/acme/api', 'github.com/acme/api'],
    ['https://GitHub.com/Acme/API.git', 'github.com/acme/api'],
    ['https://github.com/acme/api/', 'github.com/acme/api'],
    ['https://github.com/acme/api.git/', 'github.com/acme/api'],
    ['http://github.com/acme/api', 'github.com/acme/api'],
    ['https://user:s3cret@github.com/acme/api.git', 'github.com/acme/api'],
    ['https://x-access-token:ghp_abc@github.com:443/acme/api', 'github.com/acme/api'],
    ['git@github.com:acme/api.git', 'github.com/acme/api'],
    ['git@GitHub.com:Acme/API.git', 'github.com/acme/api'],
    ['github.com:acme/api', 'github.com/acme/api'],
    ['ssh://git@github.com/acme/api.git', 'github.com/acme/api'],
    ['ssh://git@github.com:22/acme/api.git', 'github.com/acme/api'],
    ['SSH://GIT@GITHUB.COM/ACME/API.GIT', 'github.com/acme/api'],
    ['git://github.com/acme/api.git', 'github.com/acme/api'],
    ['git+ssh://git@github.com/acme/api', 'github.com/acme/api'],
    ['https://gitlab.example.com/group/sub/project.git', 'gitlab.example.com/group/sub/project'],
    ['https://github.com//acme//api.git', 'github.com/acme/api'],
    ['https://github.com/acme/api?tab=readme#top', 'github.com/acme/api'],
    ['  https://github.com/acme/api  ', 'github.com/acme/api'],
    ['github.com/Acme/API', 'github.com/acme/api'],
  ])('%s -> %s', (input, id) => {
    expect(canonicalRepoId(input)).toBe(id);
  });

  it.each([
    [''],
    ['not a url'],
    ['https://github.com'],
    ['https://github.com/'],
    ['ftp://github.com/a/b'],
    ['file:///srv/repo.git'],
    ['/srv/repo.git'],
    ['https://github.com/../x'],
    ['acme/api'],
    ['https://exa mple.com/a'],
    ['javascript:alert(1)'],
    ['data:text/html,x'],
    ['mailto:a@b.example'],
    ['https://u:pa/ss@github.com/a/b'],
  ])('names no repository: %j', (input) => {
    expect(canonicalRepoId(input)).toBeUndefined();
  });

  it('is idempotent and agrees across URL forms (property)', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('github.com', 'GitLab.Example.com', 'git.acme.io'),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (host, parts, dotGit) => {
          const path = `${parts.join('/')}${dotGit ? '.git' : ''}`;
          const id = canonicalRepoId(`https://${host}/${path}`);
          expect(id).toBe(`${host.toLowerCase()}/${parts.join('/').toLowerCase()}`);
          expect(canonicalRepoId(`git@${host}:${path}`)).toBe(id);
          expect(canonicalRepoId(`ssh://git@${host}:2222/${path}/`)).toBe(id);
          expect(canonicalRepoId(id as string)).toBe(id);
        },
      ),
    );
  });
});

describe('one parser of repository URLs', () => {
  it.each([
    ['https://x:secret@GitHub.com:443/Acme/API.git', 'GitHub.com', '/Acme/API.git'],
    ['git@github.com:acme/api.git', 'github.com', 'acme/api.git'],
    ['ssh://git@[::1]:22/acme/api', '[::1]', '/acme/api'],
    ['github.com/acme/api', 'github.com', '/acme/api'],
  ])('%s is host %s, path %s', (url, host, path) => {
    expect(splitRepoUrl(url)).toMatchObject({ host, path });
  });

  it('names no repository for other schemes and plain words', () => {
    for (const text of ['file:///srv/repo', 'ftp://host/repo', 'readme']) expect(splitRepoUrl(text)).toBeUndefined();
  });

  it('gives the readiness forge owner/repo of a URL on its host only', () => {
    expect(githubRepoOf('git@github.com:Acme/API.git', 'github.com')).toBe('Acme/API');
    expect(githubRepoOf('https://token@github.com/acme/api/', 'GitHub.com')).toBe('acme/api');
    expect(githubRepoOf('https://github.com/acme/api/tree/main', 'github.com')).toBeUndefined();
    expect(githubRepoOf('https://gitlab.com/acme/api', 'github.com')).toBeUndefined();
  });
});

describe('repository URLs without credentials', () => {
  it.each([
    ['https://user:s3cret@github.com/acme/api.git', 'https://github.com/acme/api.git'],
    ['https://ghp_token@GitHub.com:443/Acme/API', 'https://GitHub.com:443/Acme/API'],
    ['http://a:b@c@git.acme.io/x/y', 'http://git.acme.io/x/y'],
    ['git://anon@git.acme.io/x/y', 'git://git.acme.io/x/y'],
    ['https://github.com/acme/api?private_token=t#readme', 'https://github.com/acme/api'],
    ['  https://github.com/acme/api  ', 'https://github.com/acme/api'],
    ['ssh://git:pw@github.com:22/acme/api', 'ssh://git@github.com:22/acme/api'],
    ['ssh://git@github.com/acme/api', 'ssh://git@github.com/acme/api'],
    ['git+ssh://deploy@[::1]/acme/api', 'git+ssh://[::1]/acme/api'],
    ['ssh://ghp_TOKEN@github.com/acme/api', 'ssh://github.com/acme/api'],
    ['git@github.com:acme/api.git', 'git@github.com:acme/api.git'],
    ['git:TOKEN@github.com:acme/api.git', 'git@github.com:acme/api.git'],
    ['git@github.com:acme/api.git?token=TOKEN', 'git@github.com:acme/api.git'],
    ['git@gitserver:acme/api', 'git@gitserver:acme/api'],
    ['TOKEN@github.com:acme/api', 'github.com:acme/api'],
    ['alice@git.acme.io:acme/api#TOKEN', 'git.acme.io:acme/api'],
    ['user:p@ss:word@git.acme.io:acme/api', 'git.acme.io:acme/api'],
    ['github.com:acme/api', 'github.com:acme/api'],
    ['github.com/acme/api', 'github.com/acme/api'],
    ['github.com/acme/api?token=TOKEN#x', 'github.com/acme/api'],
    ['TOKEN@github.com/acme/api', 'github.com/acme/api'],
    ['user:TOKEN@github.com/acme/api', 'github.com/acme/api'],
    ['file:///srv/git/app.git', 'file:///srv/git/app.git'],
    ['file://me:pw@localhost/srv/git/app.git', 'file://localhost/srv/git/app.git'],
  ])('%s -> %s', (input, clean) => {
    expect(withoutCredentials(input)).toBe(clean);
    if (canonicalRepoId(input) !== undefined) expect(canonicalRepoId(clean)).toBe(canonicalRepoId(input));
  });

  it.each([
    ['javascript:alert(1)'],
    ['JAVASCRIPT:alert(1)'],
    ['vbscript:x'],
    ['data:text/html,x'],
    ['ext::sh -c id'],
    ['ftp://host.example/a'],
    ['not a url'],
    // Without its user name, text of another scheme would be left: a link a browser follows.
    ['x@javascript:alert(1)'],
    ['alice@gitserver:acme/api'],
    ['mailto:a@b.example'],
    ['https://TOKEN@github.com'],
  ])('names no repository: %j', (input) => {
    expect(withoutCredentials(input)).toBeUndefined();
  });

  it('never keeps what stood between the scheme and the @ of an http(s) URL (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:-]{1,30}$/), fc.constantFrom('https', 'http', 'git'), (secret, scheme) => {
        const clean = withoutCredentials(`${scheme}://${secret}@git.acme.io/team/repo.git`);
        expect(clean).toBe(`${scheme}://git.acme.io/team/repo.git`);
      }),
    );
  });

  it('keeps no secret of the user information, query or fragment of any form, and keeps its id (property)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/).map((s) => `SECRET${s}`);
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const forms: ((host: string, path: string, s: string) => string)[] = [
      (h, p, s) => `https://${s}@${h}/${p}`,
      (h, p, s) => `https://user:${s}@${h}/${p}`,
      (h, p, s) => `http://${h}/${p}?private_token=${s}`,
      (h, p, s) => `ssh://${s}@${h}:22/${p}#${s}`,
      (h, p, s) => `ssh://git:${s}@${h}/${p}`,
      (h, p, s) => `git://${h}/${p}?${s}`,
      (h, p, s) => `${s}@${h}:${p}`,
      (h, p, s) => `git:${s}@${h}:${p}`,
      (h, p, s) => `git@${h}:${p}?token=${s}`,
      (h, p, s) => `deploy:${s}@${h}:${p}#${s}`,
      (h, p, s) => `${h}/${p}?token=${s}`,
      (h, p, s) => `${s}@${h}/${p}`,
      (h, p, s) => `user:${s}@${h}/${p}#top`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom('github.com', 'GitLab.Example.com', 'git.acme.io'),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        secret,
        fc.constantFrom(...forms),
        (host, parts, dotGit, s, form) => {
          const path = `${parts.join('/')}${dotGit ? '.git' : ''}`;
          const input = form(host, path, s);
          const clean = withoutCredentials(input);
          expect(clean).toBeDefined();
          expect(clean).not.toContain('SECRET');
          expect(canonicalRepoId(input)).toBe(`${host.toLowerCase()}/${parts.join('/').toLowerCase()}`);
          expect(canonicalRepoId(clean!)).toBe(canonicalRepoId(input));
          expect(withoutCredentials(clean!)).toBe(clean);
        },
      ),
    );
  });

  it('prints unreadable text without what stood before its last @, or its query', () => {
    expect(shownRepoText('https://a:TOKEN@/srv/repo?x=TOKEN')).toBe('https:///srv/repo');
    expect(shownRepoText('TOKEN@localrepo')).toBe('localrepo');
    expect(shownRepoText('/srv/repo.git')).toBe('/srv/repo.git');
    expect(shownRepoText('TOKEN@host:acme/api')).toBe('host:acme/api');
    expect(shownRepoText(' git@github.com:acme/api.git ')).toBe('git@github.com:acme/api.git');
  });
});
