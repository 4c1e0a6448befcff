import { useMemo, useState } from 'react';
import type { BlockRef, InsightsDetails, InsightsSummary, WriteRef } from 'assistant-safety/insights';
import { ChartCard, colorOf, HorizontalBars, StackedBars, type BarGroup } from './charts.js';
import { useInsights, type InsightsSource } from './useInsights.js';
import type { StepRef } from './useOpenAtStep.js';
import './insights.css';

/*
 * The Insights mode: the aggregates of the server's recordings (the numbers
 * `assistant-safety stats` prints) as charts; a click on a bar lists the
 * steps behind it, and a click on a step opens its recording there.
 */

export interface InsightsModeProps {
  fromServer: boolean;
  onOpen: (ref: StepRef) => void;
}

interface Selection {
  title: string;
  refs: Array<StepRef & { label: string }>;
}

const TIME_BUCKETS = 12;
const TTV_BINS: Array<[string, number]> = [
  ['0 s', 0],
  ['≤1 s', 1000],
  ['≤2 s', 2000],
  ['≤5 s', 5000],
  ['≤10 s', 10_000],
  ['≤30 s', 30_000],
  ['≤1 min', 60_000],
  ['>1 min', Infinity],
];

const pct = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);
const ms = (v: number) => (v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);
const blockLabel = (b: BlockRef) =>
  `${b.source} · ${b.session} #${b.seq} · ${b.reasonCode}${b.tool ? ` · ${b.tool}` : ''}${b.correctedAt !== undefined ? ` · corrected at #${b.correctedAt}` : ''}`;
const writeLabel = (w: WriteRef) =>
  `${w.source} · ${w.session} #${w.seq} · ${w.tool ?? 'write'}${w.ms !== undefined ? ` · verified at #${w.verifiedSeq} after ${ms(w.ms)}` : ' · never verified'}`;

/** Blocks in time buckets between the first and last block, stacked by reason. */
function blocksOverTime(blocks: BlockRef[], select: (s: Selection) => void): BarGroup[] {
  if (blocks.length === 0) return [];
  const first = Math.min(...blocks.map((b) => b.at));
  const last = Math.max(...blocks.map((b) => b.at));
  const width = Math.max(1, (last - first) / TIME_BUCKETS);
  const buckets = Array.from({ length: TIME_BUCKETS }, () => new Map<string, BlockRef[]>());
  for (const b of blocks) {
    const i = Math.min(TIME_BUCKETS - 1, Math.floor((b.at - first) / width));
    const m = buckets[i]!;
    m.set(b.reasonCode, [...(m.get(b.reasonCode) ?? []), b]);
  }
  // Times in UTC, as the timeline shows them: the clock time within a day, else the date too.
  const day = (t: number) =>
    last - first < 86_400_000
      ? new Date(t).toISOString().slice(11, 19)
      : new Date(t).toISOString().slice(5, 16).replace('T', ' ');
  return buckets.map((m, i) => ({
    key: String(i),
    label: i % 3 === 0 ? day(first + i * width) : '',
    segments: [...m].map(([reason, refs]) => ({
      key: reason,
      label: reason,
      value: refs.length,
      color: colorOf(reason),
      data: { reason, bucket: String(i) },
      onClick: () =>
        select({
          title: `${reason} from ${day(first + i * width)}`,
          refs: refs.map((b) => ({ ...b, label: blockLabel(b) })),
        }),
    })),
  }));
}

function Overview({ summary }: { summary: InsightsSummary }) {
  const blocked = Object.values(summary.blocked).reduce((a, b) => a + b, 0);
  const ttv = summary.writes.timeToVerifyMs;
  const items: Array<[string, string, string]> = [
    ['sessions', String(summary.sessions), 'insights-sessions'],
    ['entries', String(summary.entries), 'insights-entries'],
    ['blocked decisions', String(blocked), 'insights-blocked'],
    ['self-correction', pct(summary.selfCorrection.rate), 'insights-self-correction'],
    ['writes landed', String(summary.writes.landed), 'insights-writes'],
    ['median time to verification', ttv ? ms(ttv.median) : '—', 'insights-ttv-median'],
  ];
  return (
    <dl className="insights-overview">
      {items.map(([label, value, id]) => (
        <div key={id}>
          <dt>{label}</dt>
          <dd data-testid={id}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Charts({
  summary,
  details,
  select,
}: {
  summary: InsightsSummary;
  details: InsightsDetails;
  select: (s: Selection) => void;
}) {
  const overTime = useMemo(() => blocksOverTime(details.blocks, select), [details, select]);
  const toBlocks = (title: string, refs: BlockRef[]) => () =>
    select({ title, refs: refs.map((b) => ({ ...b, label: blockLabel(b) })) });
  const reasons = Object.entries(summary.blocked).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const tools = Object.entries(summary.blockedByTool)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 10);
  const toolBlocks = details.blocks.filter((b) => b.tool !== null);
  const corrected = toolBlocks.filter((b) => b.correctedAt !== undefined);
  const uncorrected = toolBlocks.filter((b) => b.correctedAt === undefined);
  const verified = details.writes.filter((w) => w.ms !== undefined);
  const bins = TTV_BINS.map(([label, upTo], i) => {
    const from = i === 0 ? -1 : TTV_BINS[i - 1]![1];
    return { label, refs: verified.filter((w) => w.ms! > from && w.ms! <= upTo) };
  });
  const unverified = details.writes.filter((w) => w.ms === undefined);
  const toWrites = (title: string, refs: WriteRef[]) => () =>
    select({ title, refs: refs.map((w) => ({ ...w, label: writeLabel(w) })) });

  return (
    <div className="insights-grid">
      <ChartCard title="Blocked by reason">
        <HorizontalBars
          testId="chart-reasons"
          rows={reasons.map(([reason, n]) => ({
            key: reason,
            label: reason,
            value: n,
            color: colorOf(reason),
            data: { reason },
            onClick: toBlocks(
              `blocked: ${reason}`,
              details.blocks.filter((b) => b.reasonCode === reason),
            ),
          }))}
        />
      </ChartCard>
      <ChartCard
        title="Blocks over time, by reason"
        note={
          <span className="legend">
            {reasons.map(([reason]) => (
              <span key={reason}>
                <i style={{ background: colorOf(reason) }} /> {reason}
              </span>
            ))}
          </span>
        }
      >
        <StackedBars testId="chart-over-time" groups={overTime} />
      </ChartCard>
      <ChartCard
        title={`Self-correction: ${pct(summary.selfCorrection.rate)}`}
        note="A blocked call followed, in the same session, by a successful call of the same tool."
      >
        <HorizontalBars
          testId="chart-self-correction"
          rows={[
            {
              key: 'corrected',
              label: 'corrected',
              value: corrected.length,
              color: '#15803d',
              data: { outcome: 'corrected' },
              onClick: toBlocks('blocked calls the model corrected', corrected),
            },
            {
              key: 'not',
              label: 'not corrected',
              value: uncorrected.length,
              color: '#c62828',
              data: { outcome: 'not-corrected' },
              onClick: toBlocks('blocked calls never corrected', uncorrected),
            },
          ]}
        />
      </ChartCard>
      <ChartCard
        title="Time to verification"
        note={`${summary.writes.verified} of ${summary.writes.landed} writes verified; ${summary.writes.unverified} never.`}
      >
        <StackedBars
          testId="chart-ttv"
          groups={[
            ...bins.map((b, i) => ({
              key: String(i),
              label: b.label,
              segments: [
                {
                  key: 'v',
                  label: 'writes',
                  value: b.refs.length,
                  color: '#2563eb',
                  data: { bin: b.label },
                  onClick: toWrites(`writes verified in ${b.label}`, b.refs),
                },
              ],
            })),
            {
              key: 'never',
              label: 'never',
              segments: [
                {
                  key: 'n',
                  label: 'writes',
                  value: unverified.length,
                  color: '#c62828',
                  data: { bin: 'never' },
                  onClick: toWrites('writes never verified', unverified),
                },
              ],
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Most-blocked tools">
        <HorizontalBars
          testId="chart-tools"
          rows={tools.map(([tool, n]) => ({
            key: tool,
            label: tool,
            value: n,
            color: '#6b7385',
            data: { tool },
            onClick: toBlocks(
              `blocked: ${tool}`,
              details.blocks.filter((b) => b.tool === tool),
            ),
          }))}
        />
      </ChartCard>
    </div>
  );
}

/** The Insights mode's page. */
export function InsightsMode({ fromServer, onOpen }: InsightsModeProps) {
  const [source, setSource] = useState<InsightsSource>('recordings');
  const { state, reload } = useInsights(true, fromServer, source);
  const [selection, setSelection] = useState<Selection | undefined>(undefined);
  const show = (s: InsightsSource) => {
    setSelection(undefined);
    setSource(s);
  };
  if (!fromServer)
    return <p className="muted insights-page">Insights need the server: run `assistant-safety serve`.</p>;
  return (
    <div className="insights-page" data-testid="insights">
      <div className="insights-head">
        <h2>Insights</h2>
        <nav className="modes" aria-label="insights source">
          {(['recordings', 'live'] as const).map((s) => (
            <button
              key={s}
              type="button"
              className={s === source ? 'selected' : ''}
              data-testid={`insights-source-${s}`}
              onClick={() => show(s)}
            >
              {s === 'live' ? 'live sessions' : "the server's recordings"}
            </button>
          ))}
        </nav>
        <button type="button" onClick={reload}>
          reload
        </button>
        {state.status === 'loading' && (
          <span className="muted">
            reading {state.done} / {state.of}…
          </span>
        )}
        {state.status === 'ready' && source === 'recordings' && (
          <span className="muted" data-testid="insights-files">
            {state.files.length} recordings
          </span>
        )}
      </div>
      {state.status === 'error' && <p className="error">{state.message}</p>}
      {state.status === 'ready' && state.skipped.length > 0 && (
        <p className="warning">Left out (bad line): {state.skipped.join(', ')}</p>
      )}
      {state.status === 'ready' && (
        <div className="insights-body">
          <div>
            <Overview summary={state.summary} />
            <Charts summary={state.summary} details={state.details} select={setSelection} />
          </div>
          <aside className="insights-refs" data-testid="insights-refs">
            <h3>{selection ? selection.title : 'Click a bar to list the steps behind it'}</h3>
            <ul>
              {selection?.refs.map((r) => (
                <li key={`${r.source}/${r.session}/${r.seq}`}>
                  <button
                    type="button"
                    data-testid="insights-ref"
                    data-source={r.source}
                    data-session={r.session}
                    data-seq={r.seq}
                    onClick={() => onOpen(r)}
                  >
                    {r.label}
                  </button>
                </li>
              ))}
            </ul>
          </aside>
        </div>
      )}
    </div>
  );
}
