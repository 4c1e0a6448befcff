import type { BlockReasonCode } from '../safety/toolKind.js';
import { blockReasonProblem, ESCALATED_BY_DEFAULT } from '../safety/blockReasons.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { AuditReport, COUNTERFACTUAL_NOTE } from './AuditReport.js';
import type { TraceAudit } from './gateTrace.js';
import type { TraceIssue } from './TraceIssue.js';

/**
 * Block reasons a person is asked about by default: the attestable ones a call can hit (a person can
 * supply the missing evidence); a final answer held back is counted apart (see `BLOCK_REASONS`).
 */
export const DEFAULT_ESCALATE: readonly BlockReasonCode[] = ESCALATED_BY_DEFAULT;

export interface AuditReportOptions {
  /** Block reasons that count as escalations. Default {@link DEFAULT_ESCALATE}. */
  escalate?: readonly string[];
}

/** Adds up trace audits into a report in bounded memory. See {@link createAuditReport}. */
export interface AuditReportBuilder {
  file(file: string, format: string | null, traces: number): void;
  add(audit: TraceAudit): void;
  skipped(): void;
  malformed(issue: TraceIssue): void;
  report(): AuditReport;
}

const KEEP_ERRORS = 100;
const KEEP_KEYS = 10_000;
const SEQUENCE_LENGTH = 10;
const TOP_SEQUENCES = 20;

const CALL_BUCKETS: [number, string][] = [
  [1, '1'],
  [2, '2'],
  [3, '3'],
  [5, '4-5'],
  [10, '6-10'],
  [20, '11-20'],
  [Infinity, '21+'],
];
const callBucket = (n: number) => CALL_BUCKETS.find(([max]) => n <= max)![1];
const PARTS = ['first quarter', 'second quarter', 'third quarter', 'last quarter'];

/** Log-scale histogram of decision times: buckets 2 % wide. */
const GROWTH = 1.02;
const bucketOf = (us: number) => Math.floor(Math.log(Math.max(us, 0.01) / 0.01) / Math.log(GROWTH));
const valueOf = (b: number) => 0.01 * GROWTH ** (b + 0.5);

/**
 * Adds to a count kept as an own property: a tool named `constructor`, `toString` or `__proto__` is a
 * key like any other (a plain `r[k] ?? 0` would read the prototype's, and `r['__proto__'] =` set it).
 */
const inc = (r: Record<string, number>, k: string, by = 1) => {
  const now = Object.hasOwn(r, k) ? r[k]! : 0;
  Object.defineProperty(r, k, { value: now + by, writable: true, enumerable: true, configurable: true });
};
const own = (r: Record<string, number>, k: string) => (Object.hasOwn(r, k) ? r[k] : undefined);

/** The counts in a fixed key order (buckets read in their order), keys with none left out. */
const ordered = (r: Record<string, number>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => own(r, k) !== undefined).map((k) => [k, r[k]!]));

const sortedCounts = (r: Record<string, number>) =>
  Object.fromEntries(Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));

/**
 * Builds the audit report: every count the JSON report holds, added up trace by trace, in memory
 * bounded by the number of distinct tools and blocked sequences kept (10,000 each), not by the
 * number of traces.
 *
 * @example
 * const builder = createAuditReport();
 * builder.add(gateTrace(trace, { classifier }));
 * builder.report().tracesWithBlock;
 */
export function createAuditReport(options: AuditReportOptions = {}): AuditReportBuilder {
  refuseUnknownOptions('createAuditReport', options, keysOf<AuditReportOptions>({ escalate: true }));
  // A misspelt code would count nothing as an escalation, without a word.
  for (const [i, code] of (options.escalate ?? []).entries()) {
    const problem = blockReasonProblem(String(code));
    if (problem !== undefined) throw new TypeError(`createAuditReport: options.escalate.${i}: ${problem}`);
  }
  const escalate = new Set(options.escalate ?? DEFAULT_ESCALATE);
  const files: AuditReport['files'] = [];
  let traces = 0;
  let skipped = 0;
  let malformed = 0;
  let tracesWithBlock = 0;
  let finalAnswersChecked = 0;
  let finalAnswersBlocked = 0;
  let tracesEndingOnToolCall = 0;
  const calls = { total: 0, allowed: 0, blocked: 0, resultsIgnored: 0 };
  const blocked: Record<string, number> = {};
  const blockedByTool: Record<string, number> = {};
  const blockedByState: Record<string, number> = {};
  const atCall: Record<string, number> = {};
  const atPart: Record<string, number> = {};
  let escalationCalls = 0;
  let escalationTraces = 0;
  const escalationReasons: Record<string, number> = {};
  const traceDetail: AuditReport['traceDetail'] = [];
  const histogram = new Map<number, number>();
  let maxUs = 0;
  const sequences = new Map<string, { tools: string[]; traces: number; example: string }>();
  const tools = new Map<
    string,
    { calls: number; blocked: number; kinds: Record<string, number>; decidedBy: Set<string> }
  >();
  const errors: TraceIssue[] = [];
  let errorCount = 0;
  let unreadableArguments = 0;
  const problem = (issue: TraceIssue) => {
    errorCount++;
    if (errors.length < KEEP_ERRORS) errors.push(issue);
  };

  return {
    file(file, format, n) {
      files.push({ file, format, traces: n });
    },
    skipped() {
      skipped++;
    },
    malformed(issue) {
      skipped++;
      malformed++;
      problem(issue);
    },
    add(audit) {
      traces++;
      let first = -1;
      let escalated = false;
      const names: string[] = [];
      const detail: AuditReport['traceDetail'][number]['blocked'] = [];
      for (const [i, c] of audit.calls.entries()) {
        calls.total++;
        const us = c.ms * 1000;
        const b = bucketOf(us);
        histogram.set(b, (histogram.get(b) ?? 0) + 1);
        if (us > maxUs) maxUs = us;
        let t = tools.get(c.tool);
        if (!t && tools.size < KEEP_KEYS)
          tools.set(c.tool, (t = { calls: 0, blocked: 0, kinds: {}, decidedBy: new Set() }));
        if (t) {
          t.calls++;
          inc(t.kinds, c.kind);
          t.decidedBy.add(c.rule);
        }
        if (!c.blocked) {
          calls.allowed++;
          continue;
        }
        calls.blocked++;
        if (t) t.blocked++;
        inc(blocked, c.reason!);
        inc(blockedByTool, c.tool);
        inc(blockedByState, c.state);
        if (first === -1) first = i;
        if (escalate.has(c.reason!)) {
          escalationCalls++;
          inc(escalationReasons, c.reason!);
          escalated = true;
        }
        detail.push({ callId: c.id, tool: c.tool, reasonCode: c.reason!, targets: [...(c.targets ?? [])] });
        names.push(c.tool);
      }
      const finalBlock =
        audit.final?.blocked === true ? { reasonCode: audit.final.reason!, state: audit.final.state } : undefined;
      traceDetail.push({ id: audit.id, blocked: detail, ...(finalBlock && { final: finalBlock }) });
      calls.resultsIgnored += audit.resultsIgnored;
      for (const issue of audit.unreadableArguments ?? []) {
        unreadableArguments++;
        problem({ ...issue });
      }
      if (escalated) escalationTraces++;
      if (first !== -1) {
        tracesWithBlock++;
        inc(atCall, callBucket(first + 1));
        inc(atPart, PARTS[Math.min(3, Math.floor((4 * first) / audit.calls.length))]!);
        const shown = names.length > SEQUENCE_LENGTH ? [...names.slice(0, SEQUENCE_LENGTH), '…'] : names;
        const key = JSON.stringify(shown);
        const s = sequences.get(key);
        if (s) s.traces++;
        else if (sequences.size < KEEP_KEYS) sequences.set(key, { tools: shown, traces: 1, example: audit.id });
      }
      if (audit.final) {
        finalAnswersChecked++;
        if (audit.final.blocked) {
          finalAnswersBlocked++;
          inc(blocked, audit.final.reason!);
          inc(blockedByState, audit.final.state);
          if (first === -1) inc(atCall, 'final answer');
        }
      } else if (audit.calls.length > 0) tracesEndingOnToolCall++;
    },
    report() {
      const total = [...histogram.values()].reduce((a, b) => a + b, 0);
      const quantile = (q: number) => {
        if (total === 0) return 0;
        const rank = Math.ceil(q * total);
        let seen = 0;
        for (const b of [...histogram.keys()].sort((x, y) => x - y)) {
          seen += histogram.get(b)!;
          if (seen >= rank) return Math.min(maxUs, valueOf(b));
        }
        return maxUs;
      };
      const round = (us: number) => Math.round(us * 10) / 10;
      const toolRows = [...tools.entries()]
        .map(([tool, t]) => ({
          tool,
          calls: t.calls,
          blocked: t.blocked,
          kinds: sortedCounts(t.kinds),
          decidedBy: [...t.decidedBy].sort(),
        }))
        .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
      const declaredBy = new Set(['rules', 'kind', 'annotations']);
      return {
        format: 'assistant-safety-audit',
        version: 1,
        note: COUNTERFACTUAL_NOTE,
        files,
        traces,
        skipped,
        malformed,
        tracesWithBlock,
        finalAnswersChecked,
        finalAnswersBlocked,
        tracesEndingOnToolCall,
        unreadableArguments,
        calls: { ...calls },
        blocked: sortedCounts(blocked),
        blockedByTool: sortedCounts(blockedByTool),
        blockedByState: sortedCounts(blockedByState),
        firstBlock: {
          atCall: ordered(atCall, [...CALL_BUCKETS.map(([, k]) => k), 'final answer']),
          atPart: ordered(atPart, PARTS),
        },
        escalations: { calls: escalationCalls, traces: escalationTraces, reasons: sortedCounts(escalationReasons) },
        decisionTimeUs: { calls: total, p50: round(quantile(0.5)), p99: round(quantile(0.99)), max: round(maxUs) },
        sequences: [...sequences.values()]
          .sort((a, b) => b.traces - a.traces || a.tools.join().localeCompare(b.tools.join()))
          .slice(0, TOP_SEQUENCES)
          .map((s) => ({ ...s, tools: [...s.tools] })),
        tools: toolRows,
        undeclared: toolRows.filter((t) => !t.decidedBy.some((r) => declaredBy.has(r))).map((t) => t.tool),
        traceDetail: traceDetail.map((t) => ({
          id: t.id,
          blocked: t.blocked.map((b) => ({ ...b })),
          ...(t.final && { final: { ...t.final } }),
        })),
        errors: [...errors],
        errorCount,
      };
    },
  };
}
