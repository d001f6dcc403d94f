import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useSearch } from '@tanstack/react-router';
import { teamsQuery } from '../teams/queries.js';
import { Field } from '../ui/parts.js';

/** The pages whose reports are counted per person, and so can be read by team (docs/analytics.md, Analytics by team). */
const BY_TEAM = ['/analytics/credits', '/analytics/activity', '/analytics/users'];

/** The name of a team of the list (undefined while it loads, or for a deleted team's id). */
export function useTeamName(teamId: string | undefined): string | undefined {
  const teams = useQuery({ ...teamsQuery, enabled: teamId !== undefined });
  return teams.data?.teams.find((t) => t.id === teamId)?.name;
}

/**
 * The team the analytics pages are narrowed to, kept in the URL (`?team=ID`) beside the range: a
 * person counts in a team on the days they belonged to it. Tools and productivity are counted for
 * the whole organization, and say so.
 */
export function TeamSelect() {
  const search = useSearch({ from: '/shell/analytics' });
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const teams = useQuery(teamsQuery);
  const list = teams.data?.teams ?? [];
  const byTeam = BY_TEAM.some((p) => pathname.startsWith(p));
  // A deleted team (a link kept from before) is still a valid filter: its history stays.
  const unknown = search.team !== undefined && teams.data !== undefined && !list.some((t) => t.id === search.team);
  return (
    <div className="team-select">
      <Field label="Team">
        <select
          value={search.team ?? ''}
          disabled={!byTeam}
          onChange={(e) => void navigate({ to: '.', search: (prev) => ({ ...prev, team: e.target.value || undefined }) })}
        >
          <option value="">All teams (the organization)</option>
          {list.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
          {unknown ? <option value={search.team}>A deleted team</option> : null}
        </select>
      </Field>
      {!byTeam && search.team ? (
        <p className="muted" data-testid="not-by-team">
          This page is counted for the whole organization: its names are kept per day, not per person, so it cannot be split by team.
        </p>
      ) : null}
    </div>
  );
}
