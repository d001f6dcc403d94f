import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, ApiFailure, call } from '../api.js';
import { ErrorNote, Field } from '../ui/parts.js';
import { computersKey, type Computer } from './queries.js';

/** Install dependencies again; the API's 409 (an install session is running) is said as "already running". */
export function InstallDepsButton({ computer, onStarted }: { computer: Computer; onStarted: (c: Computer) => void }) {
  const install = useMutation({
    mutationFn: () => call(api.POST('/api/v0/computers/{computerId}/install-deps', { params: { path: { computerId: computer.id } } })),
    onSuccess: (c) => onStarted(c),
  });
  const busy = install.error instanceof ApiFailure && install.error.status === 409;
  return (
    <div>
      <button type="button" disabled={install.isPending} onClick={() => install.mutate()}>
        Install dependencies
      </button>
      <div aria-live="polite">
        {busy ? (
          <p className="notice" data-testid="install-already-running">
            Already running: an install session of this computer has not finished yet.
          </p>
        ) : install.isSuccess ? (
          <p className="muted">Install started.</p>
        ) : null}
      </div>
      {busy ? null : <ErrorNote error={install.error} />}
    </div>
  );
}

export function RenameForm({ computer, onRenamed }: { computer: Computer; onRenamed: (c: Computer) => void }) {
  const [name, setName] = useState(computer.name);
  const rename = useMutation({
    mutationFn: () => call(api.PATCH('/api/v0/computers/{computerId}', { params: { path: { computerId: computer.id } }, body: { name } })),
    onSuccess: (c) => onRenamed(c),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate();
  };
  return (
    <>
      <form className="inline" onSubmit={submit}>
        <Field label="New name">
          <input type="text" required maxLength={63} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" className="secondary" disabled={rename.isPending || name === computer.name}>
          Rename
        </button>
      </form>
      <ErrorNote error={rename.error} />
    </>
  );
}

/** Delete, after a second click that names the computer (the provider's resources are released). */
export function DeleteButton({ computer }: { computer: Computer }) {
  const [asked, setAsked] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/v0/computers/{computerId}', { params: { path: { computerId: computer.id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: computersKey });
      void navigate({ to: '/computers' });
    },
  });
  return (
    <div>
      {asked ? (
        <>
          <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {`Delete ${computer.name} for good`}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setAsked(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" className="danger" onClick={() => setAsked(true)}>
          Delete computer
        </button>
      )}
      <ErrorNote error={remove.error} />
    </div>
  );
}
