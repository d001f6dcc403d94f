import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Page, QueryState } from '../ui/parts.js';
import { BarTable, sumBy } from './bar-table.js';
import { CsvDownload } from './csv-download.js';
import { productivityQuery } from './queries.js';
import { NoData } from './no-data.js';
import { Term } from './term.js';
import { TimeChart } from './time-chart.js';
import { daily, Section, Stats, sum, useRange } from './view.js';

/** Productivity: files created and edited, commits and pull requests, by language and extension. */
export function ProductivityPage() {
  const { startDate, endDate, days } = useRange();
  const rows = useQuery(productivityQuery({ startDate, endDate }));
  const data = useMemo(() => rows.data ?? [], [rows.data]);
  const series = useMemo(
    () => [
      { label: 'Files created', values: daily(days, data, (r) => r.files_created) },
      { label: 'Files edited', values: daily(days, data, (r) => r.files_edited) },
      { label: 'Commits', values: daily(days, data, (r) => r.git_commits) },
      { label: 'Pull requests', values: daily(days, data, (r) => r.git_prs_created) },
    ],
    [data, days],
  );
  // No activity in the range: why, and what to do, rather than charts of zeros.
  const empty = sum(data, (r) => r.files_created + r.files_edited + r.git_commits + r.git_prs_created) === 0;
  return (
    <Page title="Productivity">
      <QueryState query={rows} />
      {rows.data && empty ? <NoData what="files, commits or pull requests" startDate={startDate} endDate={endDate} /> : null}
      {rows.data && !empty ? (
        <>
          <Stats
            items={[
              { metric: 'files', label: 'Files created', value: sum(data, (r) => r.files_created) },
              { metric: 'files', label: 'Files edited', value: sum(data, (r) => r.files_edited) },
              { metric: 'git', label: 'Commits', value: sum(data, (r) => r.git_commits), testId: 'total-commits' },
              { metric: 'git', label: 'Pull requests', value: sum(data, (r) => r.git_prs_created) },
            ]}
          />
          <Section
            title="Files and commits per day"
            actions={<CsvDownload rows={rows.data} filename={`productivity-${startDate}-${endDate}.csv`} label="Download CSV (per day)" />}
          >
            <p className="muted">
              <Term metric="files">Files created and edited</Term>, <Term metric="git">commits and pull requests</Term>.
            </p>
            <TimeChart title="Files and commits per day" days={days} series={series} testId="productivity-chart" />
          </Section>
          <Section title="Breakdowns over the range">
            <div className="breakdowns">
              <BarTable
                caption={<Term metric="by_language">Files by language</Term>}
                name="Language"
                unit="Files"
                rows={sumBy(data, (r) => r.by_language.map((l) => ({ name: l.language, value: l.count })))}
              />
              <BarTable
                caption={<Term metric="by_extension">Files by extension</Term>}
                name="Extension"
                unit="Files"
                rows={sumBy(data, (r) => r.by_extension.map((l) => ({ name: l.extension, value: l.count })))}
              />
            </div>
          </Section>
        </>
      ) : null}
    </Page>
  );
}
