import { z } from 'zod';
import { defineMachineKind, type MachineKindInit } from '../index.js';
import { PATROL_PHASES, PatrolPhase, RunError, RunType } from './PatrolRunRecord.js';

/*
 * The Patrol run as a machine kind: everything generic tooling needs to load,
 * run, explore and record a machine of this kind, in one module. The context
 * and event schemas, the guards and actions the JSON may name (pure functions
 * over context and event), and the recorded projection of a snapshot.
 */

/** The run's control data: counts the guards read and the invariants check. */
export const PatrolContext = z.object({
  runType: RunType,
  trigger: z.string(),
  errors: z.array(RunError),
  triageFlags: z.number().int().nonnegative(),
  mainReports: z.number().int().nonnegative(),
  signals: z.number().int().nonnegative(),
  unmatched: z.number().int().nonnegative(),
  reportBudget: z.number().int().nonnegative(),
  evaluationReports: z.number().int().nonnegative(),
  refusedReports: z.number().int().nonnegative(),
  missingAssessments: z.number().int().nonnegative(),
  reconciled: z.boolean(),
  records: z.number().int().nonnegative(),
  dispatched: z.number().int().nonnegative(),
});
export type PatrolContext = z.infer<typeof PatrolContext>;

/**
 * The context before any run.
 *
 * @example
 * initialPatrolContext().records; // 0
 */
export function initialPatrolContext(): PatrolContext {
  return {
    runType: 'full',
    trigger: '',
    errors: [],
    triageFlags: 0,
    mainReports: 0,
    signals: 0,
    unmatched: 0,
    reportBudget: 0,
    evaluationReports: 0,
    refusedReports: 0,
    missingAssessments: 0,
    reconciled: false,
    records: 0,
    dispatched: 0,
  };
}

const count = z.number().int().nonnegative();

/** Every event a Patrol run machine takes; the runner sends them as each phase ends. */
export const PatrolEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('START'), runType: RunType, trigger: z.string() }),
  z.object({ type: z.literal('GATES_PASSED') }),
  z.object({ type: z.literal('TRIAGED'), flags: count }),
  z.object({ type: z.literal('REPORT_REQUESTED'), findingId: z.optional(z.string()) }),
  z.object({ type: z.literal('PASS_DONE') }),
  z.object({ type: z.literal('SIGNALS_DETECTED'), signals: count, unmatched: count }),
  z.object({ type: z.literal('ASSESSMENTS_CHECKED'), missing: count }),
  z.object({ type: z.literal('RECONCILED'), resolved: count }),
  z.object({ type: z.literal('RECORDED') }),
  z.object({ type: z.literal('DISPATCH'), findingId: z.string() }),
  z.object({ type: z.literal('DISPATCH_DONE') }),
  z.object({ type: z.literal('PHASE_FAILED'), message: z.string() }),
]);
export type PatrolEvent = z.infer<typeof PatrolEvent>;

/** The event types, for validating machine JSON. */
export const PATROL_EVENT_TYPES = PatrolEvent.options.map((o) => o.shape.type.value);

type Guard = (context: PatrolContext, event: PatrolEvent) => boolean;
type Patch = (context: PatrolContext, event: PatrolEvent, params: unknown) => Partial<PatrolContext>;

/** The guards `machines/patrol.json` may name. */
export const patrolGuards = {
  hasUnmatchedSignals: (_c, e) => (e.type === 'SIGNALS_DETECTED' ? e.unmatched > 0 : false),
  reportBudgetLeft: (c) => c.evaluationReports < c.reportBudget,
  hasMissingAssessments: (_c, e) => (e.type === 'ASSESSMENTS_CHECKED' ? e.missing > 0 : false),
  isFullRun: (c) => c.runType === 'full',
} satisfies Record<string, Guard>;

const NoteErrorParams = z.object({ phase: PatrolPhase, message: z.optional(z.string()) });

/** The actions `machines/patrol.json` may name: each a pure patch of the context, with a params schema if it takes any. */
export const patrolActions: Record<string, { params?: z.ZodType; run: Patch }> = {
  beginRun: {
    run: (_c, e) => ({
      ...initialPatrolContext(),
      ...(e.type === 'START' && { runType: e.runType, trigger: e.trigger }),
    }),
  },
  noteError: {
    params: NoteErrorParams,
    run: (c, e, params) => {
      const p = NoteErrorParams.parse(params);
      const message = e.type === 'PHASE_FAILED' ? e.message : (p.message ?? p.phase);
      return { errors: [...c.errors, { phase: p.phase, message }] };
    },
  },
  noteTriage: { run: (_c, e) => (e.type === 'TRIAGED' ? { triageFlags: e.flags } : {}) },
  countMainReport: { run: (c) => ({ mainReports: c.mainReports + 1 }) },
  noteSignals: {
    run: (_c, e) => (e.type === 'SIGNALS_DETECTED' ? { signals: e.signals, unmatched: e.unmatched } : {}),
  },
  openReportBudget: { run: (c) => ({ reportBudget: c.unmatched, evaluationReports: 0 }) },
  countEvaluationReport: { run: (c) => ({ evaluationReports: c.evaluationReports + 1 }) },
  refuseReport: { run: (c) => ({ refusedReports: c.refusedReports + 1 }) },
  noteMissingAssessments: {
    run: (_c, e) => (e.type === 'ASSESSMENTS_CHECKED' ? { missingAssessments: e.missing } : {}),
  },
  noteReconciled: { run: () => ({ reconciled: true }) },
  writeRecord: { run: (c) => ({ records: c.records + 1 }) },
  dispatchInvestigation: { run: (c) => ({ dispatched: c.dispatched + 1 }) },
};

/** A snapshot as the projection reads it. */
export interface PatrolSnapshotLike {
  value: unknown;
  context: PatrolContext;
}

/** The context's counts a recording keeps as they are, in the projection's order. */
const PROJECTED = {
  unmatched: true,
  reportBudget: true,
  evaluationReports: true,
  refusedReports: true,
  missingAssessments: true,
  reconciled: true,
  records: true,
  dispatched: true,
} as const;
const PROJECTED_KEYS = Object.keys(PROJECTED) as (keyof typeof PROJECTED)[];

/** What a recording of a run keeps of each step, and what replay compares. */
export const PatrolProjection = z.object({
  state: z.string(),
  runType: RunType,
  /** How many errors (the messages are not kept). */
  errors: z.number().int(),
  ...PatrolContext.pick(PROJECTED).shape,
});
export type PatrolProjection = z.infer<typeof PatrolProjection>;

/**
 * The recorded projection of a snapshot: the state and the counts the guards
 * and invariants read (not the trigger text or the error messages).
 *
 * @example
 * projectPatrolSnapshot(actor.getSnapshot()); // { state: 'idle', runType: 'full', errors: 0, ... }
 */
export function projectPatrolSnapshot(s: PatrolSnapshotLike): PatrolProjection {
  const c = s.context;
  const projection: Record<string, unknown> = { state: String(s.value), runType: c.runType, errors: c.errors.length };
  for (const key of PROJECTED_KEYS) projection[key] = c[key];
  return projection as PatrolProjection;
}

/**
 * The Patrol machine kind: its context and event schemas, the guards and actions
 * `machines/patrol.json` may name, and what a recording keeps of its context. The generic
 * loader (`parseMachineDefinition(json, patrolMachineKind)`) and builder (`createMachineOfKind`)
 * take it, as the explorer, paths, mutants and the `check|paths|mutate` commands do.
 *
 * @example
 * createMachineOfKind(patrolMachineKind, JSON.parse(readFileSync('machines/patrol.json', 'utf8')));
 */
export const patrolMachineKind = defineMachineKind<PatrolContext, PatrolEvent, undefined>({
  name: 'patrol',
  context: PatrolContext as unknown as MachineKindInit<PatrolContext, PatrolEvent, undefined>['context'],
  events: PatrolEvent as unknown as MachineKindInit<PatrolContext, PatrolEvent, undefined>['events'],
  guards: patrolGuards as Record<string, Guard>,
  actions: patrolActions,
  initialContext: initialPatrolContext,
  recorded: (context) => {
    const { state: _, ...counts } = projectPatrolSnapshot({ value: '', context });
    return counts;
  },
  snapshot: { version: 1, migrations: {}, check: brokenRunRules },
});

/** The states a run is in before its record is written: nothing recorded, nothing dispatched yet. */
const BEFORE_RECORD = new Set<string>(['idle', ...PATROL_PHASES.slice(0, PATROL_PHASES.indexOf('recording') + 1)]);

/** The states after the record: exactly one written. */
const AFTER_RECORD = new Set(['dispatching', 'done']);

/**
 * P1 to P4 as they hold of one configuration, so a restored snapshot cannot start a run that
 * breaks them: before the record (up to `recording`) nothing is recorded or dispatched, after it
 * (`dispatching`, `done`) exactly one record is written; never more evaluation reports or a larger
 * report budget than unmatched signals; a scoped run never reconciled.
 */
function brokenRunRules(state: string, c: PatrolContext): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  if (c.dispatched > 0 && c.records === 0)
    issues.push({
      path: ['context', 'dispatched'],
      message: `${c.dispatched} investigations dispatched with no record written (P1)`,
    });
  else if (BEFORE_RECORD.has(state) && c.dispatched > 0)
    issues.push({
      path: ['context', 'dispatched'],
      message: `${c.dispatched} investigations dispatched in state ${state}, before the record (P1)`,
    });
  if (BEFORE_RECORD.has(state) && c.records !== 0)
    issues.push({
      path: ['context', 'records'],
      message: `${c.records} records in state ${state}, before the record is written (P4)`,
    });
  if (AFTER_RECORD.has(state) && c.records !== 1)
    issues.push({
      path: ['context', 'records'],
      message: `${c.records} records in state ${state}, after the record: exactly 1 expected (P1, P4)`,
    });
  if (c.evaluationReports > c.unmatched)
    issues.push({
      path: ['context', 'evaluationReports'],
      message: `${c.evaluationReports} evaluation reports for ${c.unmatched} unmatched signals (P2)`,
    });
  if (c.reportBudget > c.unmatched)
    issues.push({
      path: ['context', 'reportBudget'],
      message: `a report budget of ${c.reportBudget} for ${c.unmatched} unmatched signals (P2)`,
    });
  if (c.runType === 'scoped' && c.reconciled)
    issues.push({ path: ['context', 'reconciled'], message: 'a scoped run that reconciled stale findings (P3)' });
  return issues;
}
