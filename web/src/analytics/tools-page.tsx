import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Page, QueryState } from '../ui/parts.js';
import { BarTable, sumBy } from './bar-table.js';
import { CsvDownload } from './csv-download.js';
import { toolsQuery } from './queries.js';
import { NoData } from './no-data.js';
import { Term } from './term.js';
import { TimeChart } from './time-chart.js';
import { daily, Section, Stats, sum, useRange } from './view.js';

const CHART_TOOLS = 8;
const round = (n: number) => Math.round(n * 100) / 100;

/** Tools: tool calls per day by tool, MCP servers, skills, slash commands, hooks and autonomy. */
export function ToolsPage() {
  const { startDate, endDate, days } = useRange();
  const rows = useQuery(toolsQuery({ startDate, endDate }));
  const data = useMemo(() => rows.data ?? [], [rows.data]);
  const byTool = useMemo(() => sumBy(data, (r) => r.by_tool.map((t) => ({ name: t.tool, value: t.invocations }))), [data]);
  const series = useMemo(() => {
    const top = [...byTool]
      .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1))
      .slice(0, CHART_TOOLS)
      .map((t) => t.key);
    const shown = new Set(top);
    const out = top.map((tool) => ({ label: tool, values: daily(days, data, (r) => r.by_tool.find((t) => t.tool === tool)?.invocations ?? 0) }));
    if (byTool.length > CHART_TOOLS)
      out.push({
        label: 'other tools',
        values: daily(days, data, (r) =>
          sum(
            r.by_tool.filter((t) => !shown.has(t.tool)),
            (t) => t.invocations,
          ),
        ),
      });
    return out;
  }, [byTool, data, days]);
  const autonomy = useMemo(
    () => [
      { label: 'autonomy_ratio_avg', values: daily(days, data, (r) => round(r.autonomy_ratio_avg)) },
      { label: 'autonomy_ratio_p50', values: daily(days, data, (r) => round(r.autonomy_ratio_p50)) },
      { label: 'autonomy_ratio_p90', values: daily(days, data, (r) => round(r.autonomy_ratio_p90)) },
    ],
    [data, days],
  );
  const levels = ['auto_high', 'auto_medium', 'auto_low', 'manual'] as const;
  const calls = sum(data, (r) => r.tool_calls);
  // No activity in the range: why, and what to do, rather than charts of zeros.
  const empty = sum(data, (r) => r.tool_calls + r.skills_invocations + r.slash_commands_invocations + r.hooks_invocations) === 0;
  return (
    <Page title="Tools">
      <QueryState query={rows} />
      {rows.data && empty ? <NoData what="tool calls" startDate={startDate} endDate={endDate} /> : null}
      {rows.data && !empty ? (
        <>
          <Stats
            items={[
              { metric: 'tool_calls', label: 'Tool calls', value: calls, testId: 'total-tool-calls' },
              { metric: 'skills', label: 'Skill invocations', value: sum(data, (r) => r.skills_invocations) },
              { metric: 'slash_commands', label: 'Slash commands', value: sum(data, (r) => r.slash_commands_invocations) },
              { metric: 'hooks', label: 'Hook invocations', value: sum(data, (r) => r.hooks_invocations) },
            ]}
          />
          <Section
            title="Tool calls per day by tool"
            actions={<CsvDownload rows={rows.data} filename={`tools-${startDate}-${endDate}.csv`} label="Download CSV (per day)" />}
          >
            <p className="muted">
              <Term metric="tool_calls">Tool calls</Term> of the {CHART_TOOLS} most called tools, the others together.
            </p>
            <TimeChart title="Tool calls per day by tool" days={days} series={series} testId="tools-chart" />
          </Section>
          <Section title="Breakdowns over the range">
            <div className="breakdowns">
              <BarTable caption={<Term metric="tool_calls">Tool calls by tool</Term>} name="Tool" unit="Calls" rows={byTool} />
              <BarTable
                caption={<Term metric="mcp_by_server">Tool calls by MCP server</Term>}
                name="MCP server"
                unit="Calls"
                rows={sumBy(data, (r) => r.mcp_by_server.map((m) => ({ name: m.server, value: m.invocations })))}
              />
              <BarTable
                caption={<Term metric="skills">Skills</Term>}
                name="Skill"
                unit="Invocations"
                rows={sumBy(data, (r) => r.skills_by_name.map((m) => ({ name: m.name, value: m.count })))}
              />
              <BarTable
                caption={<Term metric="slash_commands">Slash commands</Term>}
                name="Command"
                unit="Invocations"
                rows={sumBy(data, (r) => r.slash_commands_by_name.map((m) => ({ name: m.name, value: m.count })))}
              />
              <BarTable
                caption={<Term metric="hooks">Hooks</Term>}
                name="Event / matcher / command"
                unit="Invocations"
                rows={sumBy(data, (r) => r.hooks_by_event.map((m) => ({ name: [m.event, m.matcher, m.command].join(' / '), value: m.count })))}
              />
              <BarTable
                caption={<Term metric="tool_autonomy_level_ratio">Tool calls by autonomy level</Term>}
                name="Autonomy level"
                unit="Calls"
                rows={levels.map((l) => ({ key: l, label: l, value: Math.round(sum(data, (r) => r.tool_calls * r.tool_autonomy_level_ratio[l])) }))}
              />
            </div>
          </Section>
          <Section title="Autonomy per day">
            <p className="muted">
              <Term metric="autonomy_ratio_avg">Autonomy ratio</Term>: average, median and 90th percentile over the users active that day.
            </p>
            <TimeChart title="Autonomy ratio per day" days={days} series={autonomy} />
          </Section>
        </>
      ) : null}
    </Page>
  );
}
