import { Link, Outlet } from '@tanstack/react-router';
import './analytics.css';
import { keepRange } from './range.js';
import { RangeBar } from './range-bar.js';
import { TeamSelect } from './team-select.js';
import { useRange } from './view.js';

const AREAS = [
  { to: '/analytics/credits', label: 'Credits and tokens' },
  { to: '/analytics/tools', label: 'Tools' },
  { to: '/analytics/activity', label: 'Activity' },
  { to: '/analytics/productivity', label: 'Productivity' },
  { to: '/analytics/users', label: 'Users' },
  { to: '/analytics/repositories', label: 'Repositories' },
] as const;

/** The frame of the analytics pages: one tab per area, and the range they share (in the URL). */
export function AnalyticsLayout() {
  const { startDate, endDate } = useRange();
  return (
    <div className="analytics">
      <nav aria-label="Analytics" className="tabs">
        <ul>
          {AREAS.map((a) => (
            <li key={a.to}>
              <Link to={a.to} search={keepRange} activeProps={{ className: 'active', 'aria-current': 'page' }}>
                {a.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <RangeBar key={`${startDate}|${endDate}`} />
      <TeamSelect />
      <Outlet />
    </div>
  );
}
