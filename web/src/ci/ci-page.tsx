import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiFailure, call, useMe } from '../api.js';
import { When } from '../ui/dates.js';
import { ErrorNote, Field, Page, QueryState } from '../ui/parts.js';
import { pullRequestsQuery } from './queries.js';
import { YamlEditor, type EditorError } from './yaml-editor.js';

type Action = 'create' | 'edit' | 'delete';

const STARTER = `name: CI
on:
  pull_request:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - run: npm test
`;

/** The API's YAML error (400 with metadata line and column), as the editor shows it. */
function yamlError(error: unknown): EditorError | undefined {
  if (!(error instanceof ApiFailure) || error.status !== 400) return undefined;
  const { line, column, errors } = (error.metadata ?? {}) as { line?: unknown; column?: unknown; errors?: { path: string; message: string }[] };
  if (typeof line !== 'number' || typeof column !== 'number') return undefined;
  const message = errors?.find((e) => e.path === '/content')?.message.replace(/ \(line \d+, column \d+\)$/, '') ?? error.detail;
  return { line, column, message };
}

function PullRequestForm() {
  const queryClient = useQueryClient();
  const [repoUrl, setRepoUrl] = useState('');
  const [action, setAction] = useState<Action>('create');
  const [workflowPath, setWorkflowPath] = useState('.github/workflows/ci.yml');
  const [baseBranch, setBaseBranch] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [content, setContent] = useState(STARTER);
  const open = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v0/automations/ci/edit', {
          body: {
            repoUrl,
            action,
            workflowPath,
            ...(action === 'delete' ? {} : { content }),
            ...(baseBranch ? { baseBranch } : {}),
            ...(title ? { title } : {}),
            ...(description ? { description } : {}),
          },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pullRequestsQuery.queryKey }),
  });
  const editorError = yamlError(open.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    open.mutate();
  };
  return (
    <div className="card" aria-labelledby="open-pr-title">
      <h2 id="open-pr-title">Open a workflow pull request</h2>
      <p className="muted">One branch, one commit changing one file under .github/workflows/, and a pull request against the base branch. Nothing is merged.</p>
      <form onSubmit={submit}>
        <div className="row">
          <Field label="Repository URL">
            <input
              type="text"
              required
              maxLength={2048}
              placeholder="https://github.com/acme/shop"
              value={repoUrl}
              onChange={(e) => setRepoUrl(e.target.value)}
            />
          </Field>
          <Field label="Action">
            <select value={action} onChange={(e) => setAction(e.target.value as Action)}>
              <option value="create">create a workflow</option>
              <option value="edit">edit a workflow</option>
              <option value="delete">delete a workflow</option>
            </select>
          </Field>
          <Field label="Workflow path">
            <input type="text" required maxLength={255} value={workflowPath} onChange={(e) => setWorkflowPath(e.target.value)} />
          </Field>
        </div>
        <div className="row">
          <Field label="Base branch (default: the repository's)">
            <input type="text" maxLength={200} value={baseBranch} onChange={(e) => setBaseBranch(e.target.value)} />
          </Field>
          <Field label="Title (optional)">
            <input type="text" maxLength={256} value={title} onChange={(e) => setTitle(e.target.value)} />
          </Field>
        </div>
        <Field label="Description (optional)">
          <textarea rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        {action === 'delete' ? null : <YamlEditor label="Workflow (YAML)" value={content} onChange={setContent} error={editorError} />}
        <div>
          <button type="submit" disabled={open.isPending}>
            {open.isPending ? 'Opening…' : 'Open pull request'}
          </button>
        </div>
      </form>
      {editorError ? null : <ErrorNote error={open.error} />}
      {open.data ? (
        <p role="status" data-testid="pr-opened">
          {`Pull request #${open.data.pullRequest.number} opened: ${open.data.pullRequest.branch} → ${open.data.pullRequest.baseBranch}, commit ${open.data.commitSha.slice(0, 12)}.`}
        </p>
      ) : null}
    </div>
  );
}

function PullRequestList() {
  const prs = useQuery(pullRequestsQuery);
  if (!prs.data || prs.data.pullRequests.length === 0)
    return <QueryState query={prs} empty={prs.data ? 'No pull request has been opened from orgctl yet.' : undefined} />;
  return (
    <table>
      <caption>Pull requests opened, newest first</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Title</th>
          <th scope="col">Repository</th>
          <th scope="col">Change</th>
          <th scope="col">Branch</th>
          <th scope="col">Opened</th>
        </tr>
      </thead>
      <tbody data-testid="pull-requests">
        {prs.data.pullRequests.map((p) => (
          <tr key={p.id}>
            <td>{p.host === 'github' ? <a href={p.url}>{`#${p.number}`}</a> : `#${p.number}`}</td>
            <td>{p.title}</td>
            <td>{p.repoId}</td>
            <td>
              {p.action} <code>{p.workflowPath}</code>
            </td>
            <td>
              <code>{p.branch}</code> → <code>{p.baseBranch}</code>
            </td>
            <td>
              <When ms={p.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CiPage() {
  const me = useMe();
  return (
    <Page title="CI automation">
      {me.role === 'guest' ? <p>Guests cannot open pull requests; the list below is for reading.</p> : <PullRequestForm />}
      <h2>Pull requests</h2>
      <PullRequestList />
    </Page>
  );
}
