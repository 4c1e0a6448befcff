import type { AuditReport } from './AuditReport.js';

/** One part of a rendered report: a title, rows of label and value, and whether it is drawn as bars. */
export interface ReportSection {
  title: string;
  rows: [string, number | string][];
  bars?: boolean;
  note?: string;
}

const percent = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);

/** The most traces a rendered report names in one list; the JSON report's `traceDetail` lists every one. */
const LISTED_TRACES = 100;

/** The report as the sections the Markdown and HTML renderers show, in reading order. */
export function reportSections(r: AuditReport): ReportSection[] {
  const entries = (o: Record<string, number>): [string, number][] => Object.entries(o);
  return [
    {
      title: 'Overview',
      rows: [
        ['traces audited', r.traces],
        ['skipped (no conversation, or malformed)', `${r.skipped} (${r.malformed} malformed)`],
        ['traces with a blocked tool call', `${r.tracesWithBlock} (${percent(r.tracesWithBlock, r.traces)})`],
        ['tool calls', r.calls.total],
        ...(r.unreadableArguments > 0
          ? [
              [
                'tool calls whose arguments are not JSON (judged without them; see the problems)',
                r.unreadableArguments,
              ] as [string, number],
            ]
          : []),
        ['tool calls blocked', `${r.calls.blocked} (${percent(r.calls.blocked, r.calls.total)})`],
        ['final answers checked', r.finalAnswersChecked],
        ['final answers blocked', r.finalAnswersBlocked],
        ['traces ending on a tool call (no final answer)', r.tracesEndingOnToolCall],
        ['calls a person would be asked about', `${r.escalations.calls} in ${r.escalations.traces} traces`],
        ['decision time per call, p50 / p99', `${r.decisionTimeUs.p50} µs / ${r.decisionTimeUs.p99} µs`],
      ],
    },
    { title: 'Blocked by reason (tool calls and final answers)', rows: entries(r.blocked), bars: true },
    {
      title: 'Blocked tool calls a person would be asked about, by reason',
      rows: entries(r.escalations.reasons),
      bars: true,
    },
    { title: 'Blocked tool calls by tool', rows: entries(r.blockedByTool).slice(0, 20), bars: true },
    { title: 'Blocked by state', rows: entries(r.blockedByState), bars: true },
    { title: "Where a trace's first block falls: at call", rows: entries(r.firstBlock.atCall), bars: true },
    { title: "Where a trace's first block falls: part of the trace", rows: entries(r.firstBlock.atPart), bars: true },
    {
      title: 'Most common blocked sequences (tool names in order)',
      rows: r.sequences.map((s) => [`${s.tools.join(' → ')} (e.g. ${s.example})`, s.traces]),
    },
    finalAnswerSection(r),
    {
      title: 'Kind each tool got',
      rows: r.tools.map((t) => [
        t.tool,
        `${Object.entries(t.kinds)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}; ${t.blocked}/${t.calls} blocked; decided by ${t.decidedBy.join(', ')}`,
      ]),
      note:
        r.undeclared.length > 0
          ? `No rule, kind or annotation declared: ${r.undeclared.join(', ')}. A rules file (--rules) can say what they are.`
          : 'Every tool was declared.',
    },
  ];
}

/** The traces whose final answer was held back, each with the reason and the state the session was in. */
function finalAnswerSection(r: AuditReport): ReportSection {
  const held = r.traceDetail.filter((t) => t.final !== undefined);
  const more = held.length - LISTED_TRACES;
  return {
    title: 'Traces whose final answer was blocked',
    rows: held.slice(0, LISTED_TRACES).map((t) => [t.id, `${t.final!.reasonCode} (in ${t.final!.state})`]),
    ...(more > 0 && { note: `... and ${more} more (the JSON report's traceDetail lists every one).` }),
  };
}
