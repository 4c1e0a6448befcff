import * as z from 'zod/mini';
import { TraceIssue } from './TraceIssue.js';

const count = z.int().check(z.nonnegative());
const counts = z.record(z.string(), count);

/** The sentence every report carries: what "blocked" means in an audit. */
export const COUNTERFACTUAL_NOTE =
  'Counterfactual: each blocked call is counted and treated as not run (its recorded result is ignored), and the trace goes on as it was recorded. An agent told no might have done otherwise, so counts after the first block of a trace are an estimate.';

/**
 * The audit's JSON report, `assistant-safety audit --out report.json`. Its shape is stable within
 * `version` 1: fields may be added, none removed or changed in meaning.
 */
export const AuditReport = z.object({
  format: z.literal('assistant-safety-audit'),
  version: z.literal(1),
  note: z.string(),
  /** Input files read, and the format each was read as. */
  files: z.array(z.object({ file: z.string(), format: z.nullable(z.string()), traces: count })),
  /** Conversations audited. */
  traces: count,
  /** Rows or lines that were not audited: no conversation (a metadata row), or malformed (see `errors`). */
  skipped: count,
  /** Of `skipped`: the malformed ones (a trace that cannot be read, a line that is not JSON or too long). */
  malformed: count,
  /** Traces in which at least one tool call was blocked. */
  tracesWithBlock: count,
  /** Traces that end on the assistant's text, whose final answer was checked. */
  finalAnswersChecked: count,
  /** Traces whose final-answer check was blocked (counted apart from tool calls). */
  finalAnswersBlocked: count,
  /** Traces that end on a tool call or result, with no final answer to check. */
  tracesEndingOnToolCall: count,
  /**
   * Tool calls whose arguments are not JSON (an OpenAI `arguments` string, a span's arguments): each was
   * judged as the classifier judges arguments it cannot read, as missing ones (a write whose rule names
   * target arguments carries `?missing:<tool>@<digest>`), its trace audited, and each is listed in `errors`.
   */
  unreadableArguments: count,
  calls: z.object({
    total: count,
    allowed: count,
    blocked: count,
    /** Recorded results of blocked calls, ignored (the call did not run). */
    resultsIgnored: count,
  }),
  /** Blocked decisions by reason code: tool calls and final answers. */
  blocked: counts,
  /** Blocked tool calls by tool. */
  blockedByTool: counts,
  /** Blocked decisions (tool calls and final answers) by the state the session was in. */
  blockedByState: counts,
  /** Where each trace's first block falls: at which call (1-based, bucketed), and how far into the trace. */
  firstBlock: z.object({ atCall: counts, atPart: counts }),
  /**
   * Blocked calls whose reason is one a person would be asked about, the traces they are in, and how many of
   * those calls each such reason code blocked (`reasons`: only the codes that blocked a call).
   */
  escalations: z.object({ calls: count, traces: count, reasons: counts }),
  /** Time the gate took per tool-call decision, in microseconds (from a histogram: within 3 %). */
  decisionTimeUs: z.object({ calls: count, p50: z.number(), p99: z.number(), max: z.number() }),
  /** The most common sequences of blocked tool names in a trace, up to 20, with one trace each. */
  sequences: z.array(z.object({ tools: z.array(z.string()), traces: count, example: z.string() })),
  /** Each tool: its calls, how many were blocked, the kinds it got, and what decided them. */
  tools: z.array(
    z.object({ tool: z.string(), calls: count, blocked: count, kinds: counts, decidedBy: z.array(z.string()) }),
  ),
  /** Tools no rule, `kind` or annotation declared (decided by a name verb, a generic verb, or write by default). */
  undeclared: z.array(z.string()),
  /**
   * One entry per audited trace, in the order audited: its id (the row's `id` when it has one, else
   * `file:line`), each blocked tool call (the assistant's tool call id, the tool, the reason code and
   * the targets the call names; none when the rules name none) and, only when the trace's final answer
   * was held back, `final`: the reason code and the state the session was in.
   */
  traceDetail: z.array(
    z.object({
      id: z.string(),
      blocked: z.array(
        z.object({ callId: z.string(), tool: z.string(), reasonCode: z.string(), targets: z.array(z.string()) }),
      ),
      final: z.optional(z.object({ reasonCode: z.string(), state: z.string() })),
    }),
  ),
  /**
   * Problems, file and line first (at most 100 kept; `errorCount` counts all): malformed input (skipped)
   * and calls whose arguments are not JSON (audited).
   */
  errors: z.array(TraceIssue),
  errorCount: count,
});
export type AuditReport = z.infer<typeof AuditReport>;
