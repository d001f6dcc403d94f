import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, isManager, useMe } from '../api.js';
import { membersQuery } from '../settings/queries.js';
import { ErrorNote, Field, Page, QueryState } from '../ui/parts.js';
import { teamsQuery, useTeamChange } from './queries.js';
import { TeamCard } from './team-card.js';

function CreateTeamForm() {
  const [name, setName] = useState('');
  const create = useTeamChange(
    () => call(api.POST('/api/v0/organization/teams', { body: { name } })),
    () => setName(''),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(undefined);
  };
  return (
    <div className="card" aria-labelledby="create-team-title">
      <h2 id="create-team-title">Create a team</h2>
      <form className="inline" onSubmit={submit}>
        <Field label="Team name">
          <input
            type="text"
            required
            maxLength={100}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              create.reset();
            }}
          />
        </Field>
        <button type="submit" disabled={create.isPending}>
          Create team
        </button>
      </form>
      <ErrorNote error={create.error} />
    </div>
  );
}

/**
 * The organization's teams and who is in them. Everyone but guests reads them (the API answers a
 * guest 403, which the page shows); owners and managers create, rename and delete teams and change
 * their members, choosing among the organization's users.
 */
export function TeamsPage() {
  const me = useMe();
  const manager = isManager(me.role);
  const teams = useQuery(teamsQuery);
  // Only a manager changes members, and only a manager may list the organization's users.
  const users = useQuery({ ...membersQuery, enabled: manager });
  return (
    <Page title="Teams">
      <p className="muted">A team is a named group of the organization&apos;s users; a person may be in several teams, or in none.</p>
      {manager && teams.data ? <CreateTeamForm /> : null}
      <QueryState query={teams} empty={teams.data?.teams.length === 0 ? 'No teams yet.' : undefined} />
      {teams.data?.teams.map((t) => (
        <TeamCard key={t.id} team={t} users={manager ? (users.data?.members ?? []) : undefined} />
      ))}
    </Page>
  );
}
