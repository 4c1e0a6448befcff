import { z } from 'zod';
import { Signal, ToolCallRecord } from './Signal.js';

/** What a run covered: every resource (`full`), or the resources it was pointed at (`scoped`). */
export const RunType = z.enum(['full', 'scoped']);
export type RunType = z.infer<typeof RunType>;

/** A run's phases, as the machine's states name them. */
export const PATROL_PHASES = [
  'gating',
  'triage',
  'mainPass',
  'detecting',
  'evaluationPass',
  'checkingAssessments',
  'assessmentSweep',
  'reconciling',
  'recording',
  'dispatching',
] as const;
export const PatrolPhase = z.enum(PATROL_PHASES);
export type PatrolPhase = z.infer<typeof PatrolPhase>;

/** Something that went wrong in a run: the phase, and what. */
export const RunError = z.object({ phase: PatrolPhase, message: z.string() });
export type RunError = z.infer<typeof RunError>;

export const RunStatus = z.enum(['healthy', 'issues_found', 'critical', 'error']);
export type RunStatus = z.infer<typeof RunStatus>;

/** A run record keeps at most this many tool calls (`toolCallCount` is the full count). */
export const RECORD_TOOL_CALLS_MAX = 100;
/** A recorded tool call's input is cut to this many characters, its output to {@link RECORD_OUTPUT_MAX}. */
export const RECORD_INPUT_MAX = 16_384;
export const RECORD_OUTPUT_MAX = 2_048;

/**
 * The one record every run writes, whatever happened: what ran, what the
 * model and the detectors found, what stayed unaccounted for, what went wrong.
 */
export const PatrolRunRecord = z.object({
  schema: z.literal('patrol.run/v1'),
  id: z.string(),
  type: RunType,
  trigger: z.string(),
  scopeResourceIds: z.optional(z.array(z.string())),
  startedAt: z.number(),
  completedAt: z.number(),
  /** Never negative: `completedAt` is never before `startedAt`. */
  durationMs: z.number().nonnegative(),
  /** The states the run went through, in order (the machine's path). */
  phases: z.array(z.string()),
  status: RunStatus,
  findingsSummary: z.string(),
  errorCount: z.number().int(),
  errors: z.array(RunError),
  triageFlags: z.number().int(),
  newFindings: z.number().int(),
  existingFindings: z.number().int(),
  resolvedFindings: z.number().int(),
  /** Warning and critical findings the run reported or re-confirmed. */
  findingIds: z.array(z.string()),
  signals: z.array(Signal),
  /** Signals no finding of the main pass matched: what the evaluation pass was given. */
  unmatchedBeforeEvaluation: z.array(Signal),
  /** Signals still unmatched after the evaluation pass: recorded, never turned into findings. */
  unmatchedAfterEvaluation: z.array(Signal),
  evaluationReports: z.number().int(),
  /** Reports the evaluation pass attempted beyond its budget (refused). */
  refusedReports: z.number().int(),
  missingAssessments: z.array(z.string()),
  toolCalls: z.array(ToolCallRecord),
  toolCallCount: z.number().int(),
});
export type PatrolRunRecord = z.infer<typeof PatrolRunRecord>;

/**
 * A run's status and summary line from the active warning and critical
 * findings and the error count: `All healthy` / `healthy`; `N critical`,
 * `N warning` or `N critical and M warning` with `critical` or `issues_found`;
 * any error makes the status `error`, and an all-healthy summary becomes
 * `Analysis incomplete (N errors)` (the plural is the reference's, kept).
 *
 * @example
 * runStatus({ critical: 1, warning: 2 }, 0); // { status: 'critical', summary: '1 critical and 2 warning' }
 * runStatus({ critical: 0, warning: 0 }, 1); // { status: 'error', summary: 'Analysis incomplete (1 errors)' }
 */
export function runStatus(
  active: { critical: number; warning: number },
  errorCount: number,
): { status: RunStatus; summary: string } {
  const { critical, warning } = active;
  let summary =
    critical && warning
      ? `${critical} critical and ${warning} warning`
      : critical
        ? `${critical} critical`
        : warning
          ? `${warning} warning`
          : 'All healthy';
  let status: RunStatus = critical ? 'critical' : warning ? 'issues_found' : 'healthy';
  if (errorCount > 0) {
    status = 'error';
    if (summary === 'All healthy') summary = `Analysis incomplete (${errorCount} errors)`;
  }
  return { status, summary };
}

/**
 * A tool call as a record keeps it: input (as JSON text) and output cut to
 * {@link RECORD_INPUT_MAX} and {@link RECORD_OUTPUT_MAX} characters.
 *
 * @example
 * recordedToolCall({ id: 'c1', tool: 'pulse_query', input: {}, output: 'x'.repeat(5000), success: true }).output.length; // 2048
 */
export function recordedToolCall(call: ToolCallRecord): ToolCallRecord {
  const input = typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? null);
  return {
    ...call,
    input: input.slice(0, RECORD_INPUT_MAX),
    output: call.output.slice(0, RECORD_OUTPUT_MAX),
  };
}

/**
 * The OpenTelemetry instruments a Patrol run feeds, and the reference
 * counter each one stands for (`reference`). Attribute names are snake_case
 * as in the reference.
 */
export const PATROL_METRICS = {
  runs: {
    name: 'assistant_safety.patrol.runs',
    instrument: 'counter',
    unit: '{run}',
    attributes: ['trigger', 'type'],
    reference: 'pulse_patrol_run_total',
  },
  findingsRejected: {
    name: 'assistant_safety.patrol.findings.rejected',
    instrument: 'counter',
    unit: '{finding}',
    attributes: ['resource_type', 'metric'],
    reference: 'pulse_patrol_finding_rejected_total',
  },
  circuitBlocks: {
    name: 'assistant_safety.patrol.circuit.blocks',
    instrument: 'counter',
    unit: '{run}',
    attributes: [],
    reference: 'pulse_patrol_circuit_block_total',
  },
  investigationOutcomes: {
    name: 'assistant_safety.patrol.investigation.outcomes',
    instrument: 'counter',
    unit: '{investigation}',
    attributes: ['outcome'],
    reference: 'pulse_patrol_investigation_outcome_total',
  },
  fixVerifications: {
    name: 'assistant_safety.patrol.fix_verifications',
    instrument: 'counter',
    unit: '{verification}',
    attributes: ['result'],
    reference: 'pulse_patrol_fix_verification_total',
  },
  triageFlags: {
    name: 'assistant_safety.patrol.triage.flags',
    instrument: 'histogram',
    unit: '{flag}',
    attributes: [],
    buckets: [0, 1, 2, 3, 5, 10, 20, 50],
    reference: 'pulse_patrol_triage_flags',
  },
  triageQuiet: {
    name: 'assistant_safety.patrol.triage.quiet',
    instrument: 'counter',
    unit: '{run}',
    attributes: [],
    reference: 'pulse_patrol_triage_quiet_total',
  },
  scopedDropped: {
    name: 'assistant_safety.patrol.scoped.dropped',
    instrument: 'counter',
    unit: '{run}',
    attributes: [],
    reference: 'pulse_patrol_scoped_dropped_total',
  },
  scopedDroppedFinal: {
    name: 'assistant_safety.patrol.scoped.dropped_final',
    instrument: 'counter',
    unit: '{run}',
    attributes: [],
    reference: 'pulse_patrol_scoped_dropped_final_total',
  },
  unmatchedSignals: {
    name: 'assistant_safety.patrol.signals.unmatched',
    instrument: 'counter',
    unit: '{signal}',
    attributes: ['type', 'stage'],
    reference: 'none: the reference only logs them',
  },
} as const;

/** One measurement of a run, for your metrics SDK. */
export interface PatrolMetricPoint {
  metric: keyof typeof PATROL_METRICS;
  value: number;
  attributes: Record<string, string>;
}

/**
 * The measurements a run record stands for: one run (by trigger and type),
 * its triage flag count, a quiet triage, and the unmatched signals before and
 * after the evaluation pass, by type.
 *
 * @example
 * patrolMetricPoints(record); // [{ metric: 'runs', value: 1, attributes: { trigger: 'scheduled', type: 'full' } }, ...]
 */
export function patrolMetricPoints(record: PatrolRunRecord): PatrolMetricPoint[] {
  const points: PatrolMetricPoint[] = [
    { metric: 'runs', value: 1, attributes: { trigger: record.trigger, type: record.type } },
    { metric: 'triageFlags', value: record.triageFlags, attributes: {} },
  ];
  if (record.triageFlags === 0) points.push({ metric: 'triageQuiet', value: 1, attributes: {} });
  for (const [stage, signals] of [
    ['before_evaluation', record.unmatchedBeforeEvaluation],
    ['after_evaluation', record.unmatchedAfterEvaluation],
  ] as const) {
    const byType = new Map<string, number>();
    for (const s of signals) byType.set(s.type, (byType.get(s.type) ?? 0) + 1);
    for (const [type, n] of byType) points.push({ metric: 'unmatchedSignals', value: n, attributes: { type, stage } });
  }
  return points;
}
