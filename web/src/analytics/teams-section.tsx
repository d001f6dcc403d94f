import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { BarTable } from './bar-table.js';
import { CsvDownload } from './csv-download.js';
import { tokensByTeamQuery } from './queries.js';
import { Section } from './view.js';

/**
 * Credits by team over the range (`group_by=team`): each person counts in every team they belonged
 * to that day, so the teams may add up to more than the organization. A team is shown under its
 * latest name in the range; the CSV has each day's name.
 */
export function TeamsSection({
  startDate,
  endDate,
  teamId,
  teamFile,
  enabled,
}: {
  startDate: string;
  endDate: string;
  teamId: string | undefined;
  teamFile: string;
  enabled: boolean;
}) {
  const rows = useQuery({ ...tokensByTeamQuery({ startDate, endDate, team_id: teamId }), enabled });
  const teams = useMemo(() => {
    const byTeam = new Map<string, { name: string; credits: number }>();
    for (const r of rows.data ?? []) {
      const t = byTeam.get(r.group_key) ?? { name: r.team_name, credits: 0 };
      // Rows come by date: the last one's name is the latest.
      byTeam.set(r.group_key, { name: r.team_name, credits: t.credits + r.billable_tokens });
    }
    return [...byTeam].map(([key, t]) => ({ key, label: t.name, value: t.credits }));
  }, [rows.data]);
  if (!rows.data || rows.data.length === 0) return null;
  return (
    <Section
      title="Teams"
      actions={<CsvDownload rows={rows.data} filename={`credits-by-team-${teamFile}${startDate}-${endDate}.csv`} label="Download CSV (per day and team)" />}
    >
      <p className="muted">
        A person counts in every team they belonged to on each day, so the teams may add up to more than the organization&apos;s total; people in no team are in
        none.
      </p>
      <BarTable caption="Credits by team over the range" name="Team" unit="Credits" rows={teams} />
    </Section>
  );
}
