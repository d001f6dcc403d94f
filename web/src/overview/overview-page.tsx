import { useQuery } from '@tanstack/react-query';
import { isManager, useMe } from '../api.js';
import { tokensQuery } from '../analytics/queries.js';
import { globalLimitQuery, membersQuery } from '../settings/queries.js';
import { AllowanceCard } from '../usage/allowance-card.js';
import { ForecastText } from '../usage/forecast.js';
import { allowanceQuery } from '../usage/queries.js';
import { ComputersCard, ReadinessCard } from './area-cards.js';
import { GettingStarted } from './getting-started.js';
import './overview.css';
import { TodayCard } from '../usage/today-card.js';
import { monthStart } from '../../../src/core/days.js';
import { dayFromToday, number } from '../ui/format.js';
import { Page, QueryState } from '../ui/parts.js';

/** This month so far, as analytics can report it: from the 1st (UTC) to yesterday. */
function monthSoFar(): { startDate: string; endDate: string } | undefined {
  const yesterday = dayFromToday(-1);
  const first = monthStart(dayFromToday(0));
  return yesterday >= first ? { startDate: first, endDate: yesterday } : undefined;
}

function OrganizationCard() {
  const range = monthSoFar();
  const tokens = useQuery(tokensQuery(range));
  const members = useQuery(membersQuery);
  const global = useQuery(globalLimitQuery);
  // The organization's forecast comes with the owner's or manager's own allowance (one read, shared with its card).
  const forecast = useQuery(allowanceQuery()).data?.organization?.forecast;
  if (!members.data || !global.data || (range && !tokens.data))
    return <QueryState query={{ error: tokens.error ?? members.error ?? global.error, isLoading: true }} />;
  const rows = tokens.data ?? [];
  const credits = rows.reduce((sum, r) => sum + r.billable_tokens, 0);
  const active = new Set(rows.flatMap((r) => (r.by_user ?? []).filter((u) => u.billable_tokens > 0).map((u) => u.user_id)));
  return (
    <div className="card" aria-labelledby="org-title">
      <h2 id="org-title">Organization this month</h2>
      <dl className="stats">
        <div>
          <dt>Credits used</dt>
          <dd data-testid="org-credits">{number(credits)}</dd>
        </div>
        <div>
          <dt>Active users</dt>
          <dd>{number(active.size)}</dd>
        </div>
        <div>
          <dt>Members</dt>
          <dd>{number(members.data.members.length)}</dd>
        </div>
        <div>
          <dt>Per-user limit</dt>
          <dd>{global.data.limit === null ? 'No limit' : number(global.data.limit)}</dd>
        </div>
      </dl>
      <p className="muted">
        {range
          ? `From ${range.startDate} to ${range.endDate} (UTC); today is counted tomorrow.`
          : 'The month started today: its first day is counted tomorrow.'}
      </p>
      {forecast ? (
        <p data-testid="org-forecast">
          <ForecastText forecast={forecast} />
        </p>
      ) : null}
    </div>
  );
}

export function OverviewPage() {
  const me = useMe();
  return (
    <Page title="Overview">
      {isManager(me.role) ? <GettingStarted /> : null}
      <div className="cards">
        <TodayCard organization={isManager(me.role)} />
        <AllowanceCard />
        {isManager(me.role) ? <OrganizationCard /> : null}
        <ReadinessCard />
        {/* Guests cannot use computers (docs/computers.md): no card to show them a refusal. */}
        {me.role !== 'guest' ? <ComputersCard /> : null}
      </div>
    </Page>
  );
}
