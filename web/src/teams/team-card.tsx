import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, call, type Body } from '../api.js';
import { CreditsField, NOT_A_NUMBER, parseCredits } from '../settings/credits-field.js';
import { key as settingsKey } from '../settings/queries.js';
import { number } from '../ui/format.js';
import { ErrorNote, Field, TableScroll } from '../ui/parts.js';
import { useTeamChange } from './queries.js';

type Team = Body<'/api/v0/organization/teams', 'get'>['teams'][number];
type User = Body<'/api/v0/organization/members', 'get'>['members'][number];

/** A team's monthly budget: set (the API checks the minimum and says why) or removed; audited as limits are. */
function BudgetForm({ team }: { team: Team }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [typo, setTypo] = useState(false);
  const set = useTeamChange(
    (limit: number | null) => call(api.PUT('/api/v0/organization/usage/limits/teams/{teamId}', { params: { path: { teamId: team.id } }, body: { limit } })),
    () => {
      setText('');
      void queryClient.invalidateQueries({ queryKey: settingsKey.limitsAudit });
    },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const limit = parseCredits(text);
    setTypo(limit === undefined);
    if (limit !== undefined) set.mutate(limit);
  };
  return (
    <>
      <form className="inline" onSubmit={submit}>
        <CreditsField
          label={`Monthly budget of ${team.name} (Standard Credits, at least 1,000,000)`}
          value={text}
          onChange={(v) => {
            setText(v);
            setTypo(false);
            set.reset();
          }}
        />
        <button type="submit" disabled={set.isPending}>
          Set budget <span className="visually-hidden">of {team.name}</span>
        </button>
        {team.monthlyBudget !== null ? (
          <button type="button" className="secondary" disabled={set.isPending} onClick={() => set.mutate(null)}>
            Remove budget <span className="visually-hidden">of {team.name}</span>
          </button>
        ) : null}
      </form>
      {typo ? (
        <p className="error" role="alert">
          {NOT_A_NUMBER}
        </p>
      ) : null}
      <ErrorNote error={set.error} />
    </>
  );
}

function RenameForm({ team }: { team: Team }) {
  const [name, setName] = useState(team.name);
  const rename = useTeamChange(() => call(api.PATCH('/api/v0/organization/teams/{teamId}', { params: { path: { teamId: team.id } }, body: { name } })));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(undefined);
  };
  return (
    <>
      <form className="inline" onSubmit={submit}>
        <Field label={`New name for ${team.name}`}>
          <input
            type="text"
            required
            maxLength={100}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              rename.reset();
            }}
          />
        </Field>
        <button type="submit" className="secondary" disabled={rename.isPending || name === team.name}>
          Rename <span className="visually-hidden">{team.name}</span>
        </button>
      </form>
      <ErrorNote error={rename.error} />
    </>
  );
}

function AddMemberForm({ team, users }: { team: Team; users: User[] }) {
  const inTeam = new Set(team.members.map((m) => m.id));
  const candidates = users.filter((u) => !inTeam.has(u.id));
  const [userId, setUserId] = useState('');
  const add = useTeamChange((id: string) =>
    call(api.PUT('/api/v0/organization/teams/{teamId}/members/{userId}', { params: { path: { teamId: team.id, userId: id } } })),
  );
  // The chosen person, if still a candidate; else the first one (the list changes as members are added).
  const chosen = candidates.some((u) => u.id === userId) ? userId : (candidates[0]?.id ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen) add.mutate(chosen);
  };
  if (candidates.length === 0) return <p className="muted">Every user of the organization is in this team.</p>;
  return (
    <>
      <form className="inline" onSubmit={submit}>
        <Field label={`Add to ${team.name}`}>
          <select value={chosen} onChange={(e) => setUserId(e.target.value)}>
            {candidates.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={add.isPending}>
          Add member
        </button>
      </form>
      <ErrorNote error={add.error} />
    </>
  );
}

/**
 * One team: its members, and for owners and managers (`users` given: the organization's users to
 * choose from) renaming, adding and removing members, and deleting the team.
 */
export function TeamCard({ team, users }: { team: Team; users?: User[] }) {
  const titleId = useId();
  const remove = useTeamChange((userId: string) =>
    call(api.DELETE('/api/v0/organization/teams/{teamId}/members/{userId}', { params: { path: { teamId: team.id, userId } } })),
  );
  const deleteTeam = useTeamChange(() => call(api.DELETE('/api/v0/organization/teams/{teamId}', { params: { path: { teamId: team.id } } })));
  const count = team.members.length;
  return (
    <section className="card" aria-labelledby={titleId} data-testid="team">
      <h2 id={titleId}>{team.name}</h2>
      <p className="muted">
        {count === 1 ? '1 member' : `${count} members`};{' '}
        <span data-testid="team-budget">
          {team.monthlyBudget === null ? 'no monthly budget' : `monthly budget ${number(team.monthlyBudget)} Standard Credits`}
        </span>
      </p>
      {count > 0 ? (
        <TableScroll label={`Members of ${team.name}`}>
          <table>
            <caption className="visually-hidden">Members of {team.name}</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                {users ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {team.members.map((m) => (
                <tr key={m.id}>
                  <td>{m.email}</td>
                  <td>{m.name}</td>
                  <td>{m.role}</td>
                  {users ? (
                    <td>
                      <button type="button" className="secondary" disabled={remove.isPending} onClick={() => remove.mutate(m.id)}>
                        Remove{' '}
                        <span className="visually-hidden">
                          {m.email} from {team.name}
                        </span>
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <ErrorNote error={remove.error} />
      {users ? (
        <>
          <AddMemberForm team={team} users={users} />
          <BudgetForm team={team} />
          <RenameForm team={team} />
          <button
            type="button"
            className="danger"
            disabled={deleteTeam.isPending}
            onClick={() => {
              if (window.confirm(`Delete the team ${team.name}? Its members stay in the organization; the name becomes free.`)) deleteTeam.mutate(undefined);
            }}
          >
            Delete team <span className="visually-hidden">{team.name}</span>
          </button>
          <ErrorNote error={deleteTeam.error} />
        </>
      ) : null}
    </section>
  );
}
