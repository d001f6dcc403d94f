import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call, isManager, useMe } from '../api.js';
import { ErrorNote, Field } from '../ui/parts.js';
import { computersKey } from './queries.js';

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** The create body of the API as a form; empty optional fields are left out, so the API's defaults apply. */
export function CreateComputerForm() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<'' | 'byom' | 'e2b'>('');
  const [repos, setRepos] = useState('');
  const [autoInstallDeps, setAutoInstallDeps] = useState(true);
  const [remoteUser, setRemoteUser] = useState('');
  const [hostId, setHostId] = useState('');
  const [serviceAccountId, setServiceAccountId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v0/computers', {
          body: {
            name,
            ...(provider ? { provider } : {}),
            ...(lines(repos).length ? { repos: lines(repos) } : {}),
            autoInstallDeps,
            ...(remoteUser ? { remoteUser } : {}),
            ...(hostId ? { hostId } : {}),
            ...(serviceAccountId ? { serviceAccountId } : {}),
          },
        }),
      ),
    onSuccess: (c) => {
      void queryClient.invalidateQueries({ queryKey: computersKey });
      void navigate({ to: '/computers/$computerId', params: { computerId: c.id } });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <div className="card" aria-labelledby="create-computer-title">
      <h2 id="create-computer-title">Create a computer</h2>
      <form onSubmit={submit}>
        <div className="row">
          <Field label="Name">
            <input
              type="text"
              required
              maxLength={63}
              // The API's rule (src/computers/schemas.ts). Browsers compile a pattern with the v flag,
              // where a / in a class must be escaped: unescaped, the pattern is ignored.
              pattern={String.raw`(?!\.{1,2}$)[^\/\x00-\x1f\x7f-\x9f]+`}
              title="1 to 63 characters: no /, no control characters, not . or .."
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <Field label="Provider">
            <select value={provider} onChange={(e) => setProvider(e.target.value as '' | 'byom' | 'e2b')}>
              <option value="">Default (e2b when configured, else byom)</option>
              <option value="byom">byom: a machine running orgctl agent</option>
              <option value="e2b">e2b: a cloud sandbox</option>
            </select>
          </Field>
        </div>
        <Field label="Repositories to clone (one URL a line, at most 20)">
          <textarea rows={3} value={repos} onChange={(e) => setRepos(e.target.value)} placeholder="https://github.com/acme/shop.git" />
        </Field>
        <div className="check">
          <input id="auto-install" type="checkbox" checked={autoInstallDeps} onChange={(e) => setAutoInstallDeps(e.target.checked)} />
          <label htmlFor="auto-install">Install dependencies after cloning</label>
        </div>
        <details>
          <summary>More options</summary>
          <div className="row">
            <Field label="Remote user (optional)">
              <input type="text" maxLength={63} value={remoteUser} onChange={(e) => setRemoteUser(e.target.value)} />
            </Field>
            <Field label="Host id (optional, byom: a machine's UUID)">
              <input type="text" value={hostId} onChange={(e) => setHostId(e.target.value)} />
            </Field>
            {isManager(me.role) ? (
              <Field label="Owner service account id (optional)">
                <input type="text" value={serviceAccountId} onChange={(e) => setServiceAccountId(e.target.value)} />
              </Field>
            ) : null}
          </div>
        </details>
        <div>
          <button type="submit" disabled={create.isPending}>
            Create computer
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} />
    </div>
  );
}
