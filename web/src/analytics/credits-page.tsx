import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { number } from '../ui/format.js';
import { Page, QueryState } from '../ui/parts.js';
import { BarTable } from './bar-table.js';
import { CsvDownload } from './csv-download.js';
import { tokensByModelQuery, userTotalsQuery } from './queries.js';
import { TeamsSection } from './teams-section.js';
import { keepRange, PRESETS, resolveRange } from './range.js';
import { NoData } from './no-data.js';
import { Term } from './term.js';
import { TimeChart } from './time-chart.js';
import { daily, Section, Stats, sum, useRange } from './view.js';

/** Credits and tokens: credits per day stacked by model, the models' totals, and the users who used most. */
export function CreditsPage() {
  const { startDate, endDate, days, team_id, teamFile } = useRange();
  const rows = useQuery(tokensByModelQuery({ startDate, endDate, team_id }));
  // Once its own rows are in, the page fetches the presets' rows (small: one row per day and
  // model), so that switching to another preset draws from memory.
  const client = useQueryClient();
  const loaded = rows.data !== undefined;
  const [prefetched, setPrefetched] = useState(false);
  useEffect(() => {
    if (!loaded) return;
    void Promise.all(PRESETS.map((days) => client.prefetchQuery(tokensByModelQuery(resolveRange({ days, team: team_id }))))).finally(() => setPrefetched(true));
  }, [loaded, client, team_id]);
  // The users' totals come last: an embedded database answers one query at a time, and the
  // chart (and a switch of preset) is what the page is for. Refused rows (a member's 403) leave
  // them unasked, and their section unshown.
  const totals = useQuery({ ...userTotalsQuery({ startDate, endDate, team_id }), enabled: loaded && prefetched });
  const models = useMemo(() => {
    const byModel = new Map<string, { credits: number; input: number; output: number; cacheRead: number; cacheWrite: number }>();
    for (const r of rows.data ?? []) {
      const m = byModel.get(r.group_key) ?? { credits: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      m.credits += r.billable_tokens;
      m.input += r.input_tokens;
      m.output += r.output_tokens;
      m.cacheRead += r.cache_read_tokens;
      m.cacheWrite += r.cache_write_tokens;
      byModel.set(r.group_key, m);
    }
    return [...byModel].sort((a, b) => b[1].credits - a[1].credits || (a[0] < b[0] ? -1 : 1));
  }, [rows.data]);
  const series = useMemo(
    () =>
      models.map(([model]) => ({
        label: model,
        values: daily(
          days,
          (rows.data ?? []).filter((r) => r.group_key === model),
          (r) => r.billable_tokens,
        ),
      })),
    [models, days, rows.data],
  );
  const data = rows.data ?? [];
  // No activity in the range: why, and what to do, rather than charts of zeros.
  const empty = data.length === 0;
  return (
    <Page title="Credits and tokens">
      <QueryState query={rows} />
      {rows.data && empty ? <NoData what="credits or tokens" startDate={startDate} endDate={endDate} /> : null}
      {rows.data && !empty ? (
        <>
          <Stats
            items={[
              { metric: 'billable_tokens', label: 'Credits', value: sum(data, (r) => r.billable_tokens), testId: 'total-credits' },
              { metric: 'tokens', label: 'Input tokens', value: sum(data, (r) => r.input_tokens) },
              { metric: 'tokens', label: 'Output tokens', value: sum(data, (r) => r.output_tokens) },
              { metric: 'tokens', label: 'Cache read tokens', value: sum(data, (r) => r.cache_read_tokens) },
              { metric: 'tokens', label: 'Cache write tokens', value: sum(data, (r) => r.cache_write_tokens) },
            ]}
          />
          <Section
            title="Credits per day by model"
            actions={
              <CsvDownload rows={rows.data} filename={`credits-by-model-${teamFile}${startDate}-${endDate}.csv`} label="Download CSV (per day and model)" />
            }
          >
            <p className="muted">
              <Term metric="credits_formula">Standard Credits</Term> of each day&apos;s model requests, stacked by model; <Term metric="rounding">rounded</Term>{' '}
              per day and model.
            </p>
            <TimeChart title="Credits per day by model" days={days} series={series} stacked testId="credits-chart" />
          </Section>
          <Section title="Models">
            <BarTable
              caption={
                <>
                  Credits by model over the range (<Term metric="by_model">one row per model</Term>)
                </>
              }
              name="Model"
              unit="Credits"
              rows={models.map(([m, t]) => ({ key: m, label: m, value: t.credits }))}
            />
            <table data-testid="model-tokens">
              <caption>Tokens by model over the range</caption>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                  <th scope="col" className="num">
                    Input
                  </th>
                  <th scope="col" className="num">
                    Output
                  </th>
                  <th scope="col" className="num">
                    Cache read
                  </th>
                  <th scope="col" className="num">
                    Cache write
                  </th>
                </tr>
              </thead>
              <tbody>
                {models.map(([m, t]) => (
                  <tr key={m}>
                    <th scope="row">{m}</th>
                    <td className="num">{number(t.credits)}</td>
                    <td className="num">{number(t.input)}</td>
                    <td className="num">{number(t.output)}</td>
                    <td className="num">{number(t.cacheRead)}</td>
                    <td className="num">{number(t.cacheWrite)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <TeamsSection startDate={startDate} endDate={endDate} teamId={team_id} teamFile={teamFile} enabled={prefetched} />
        </>
      ) : null}
      {rows.error ? null : (
        <Section title="Users with the most credits">
          <QueryState query={{ error: totals.error, isLoading: !totals.data }} />
          {totals.data ? (
            <BarTable
              caption="Credits by user over the range, the ten largest (all users on the Users page)"
              name="User"
              unit="Credits"
              limit={10}
              rows={totals.data
                .filter((u) => u.billable_tokens > 0)
                .map((u) => ({
                  key: u.user_id,
                  label: (
                    <Link to="/analytics/users/$userId" params={{ userId: u.user_id }} search={keepRange}>
                      {u.user_email ?? u.user_name}
                    </Link>
                  ),
                  value: u.billable_tokens,
                }))}
            />
          ) : null}
        </Section>
      )}
    </Page>
  );
}
