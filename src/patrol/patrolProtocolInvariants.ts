import type { KindStep } from '../testing/index.js';
import { initialPatrolContext, type PatrolContext, type PatrolEvent } from './patrolMachineKind.js';
import type { PatrolInvariant } from './patrolInvariants.js';
import { PATROL_PHASES } from './PatrolRunRecord.js';

/*
 * The run's protocol as step rules, beside the four rules of a run (P1 to P4):
 * which phase each event leads to, and what each phase's outcome writes into
 * the context. They pin the machine to the run the runner drives, so a
 * careless edit of machines/patrol.json (a phase skipped, an outcome not
 * noted, a guard swapped) is caught even where P1 to P4 still hold.
 */

type Step = KindStep<PatrolContext, PatrolEvent>;

/** The phases a `PHASE_FAILED` ends early: each goes to recording, noting the error. */
const PHASES = new Set<string>(PATROL_PHASES.filter((p) => p !== 'recording' && p !== 'dispatching'));

/** The state the run's protocol goes to on an event; the state itself when the event does not apply there. */
function expectedState(state: string, c: PatrolContext, e: PatrolEvent): string {
  if (e.type === 'PHASE_FAILED' && PHASES.has(state) && state !== 'checkingAssessments') return 'recording';
  const after = (missing: number) => (missing > 0 ? 'recording' : c.runType === 'full' ? 'reconciling' : 'recording');
  switch (`${state} ${e.type}`) {
    case 'idle START':
      return 'gating';
    case 'gating GATES_PASSED':
      return 'triage';
    case 'triage TRIAGED':
      return 'mainPass';
    case 'mainPass PASS_DONE':
      return 'detecting';
    case 'detecting SIGNALS_DETECTED':
      return e.type === 'SIGNALS_DETECTED' && e.unmatched > 0 ? 'evaluationPass' : 'checkingAssessments';
    case 'evaluationPass PASS_DONE':
      return 'checkingAssessments';
    case 'checkingAssessments ASSESSMENTS_CHECKED':
      return e.type === 'ASSESSMENTS_CHECKED' && e.missing > 0 ? 'assessmentSweep' : after(0);
    case 'assessmentSweep ASSESSMENTS_CHECKED':
      return after(e.type === 'ASSESSMENTS_CHECKED' ? e.missing : 0);
    case 'reconciling RECONCILED':
      return 'recording';
    case 'recording RECORDED':
      return 'dispatching';
    case 'dispatching DISPATCH_DONE':
      return 'done';
    default:
      return state;
  }
}

const FIELDS = Object.keys(initialPatrolContext()) as (keyof PatrolContext)[];

/** The context the run's protocol writes on an event in a state. */
function expectedContext(state: string, c: PatrolContext, e: PatrolEvent): PatrolContext {
  if (e.type === 'PHASE_FAILED' && PHASES.has(state) && state !== 'checkingAssessments')
    return { ...c, errors: [...c.errors, { phase: state as never, message: e.message }] };
  switch (`${state} ${e.type}`) {
    case 'idle START':
      return e.type === 'START' ? { ...initialPatrolContext(), runType: e.runType, trigger: e.trigger } : c;
    case 'triage TRIAGED':
      return e.type === 'TRIAGED' ? { ...c, triageFlags: e.flags } : c;
    case 'mainPass REPORT_REQUESTED':
      return { ...c, mainReports: c.mainReports + 1 };
    case 'detecting SIGNALS_DETECTED':
      if (e.type !== 'SIGNALS_DETECTED') return c;
      return e.unmatched > 0
        ? { ...c, signals: e.signals, unmatched: e.unmatched, reportBudget: e.unmatched, evaluationReports: 0 }
        : { ...c, signals: e.signals, unmatched: e.unmatched };
    case 'evaluationPass REPORT_REQUESTED':
      return c.evaluationReports < c.reportBudget
        ? { ...c, evaluationReports: c.evaluationReports + 1 }
        : { ...c, refusedReports: c.refusedReports + 1 };
    case 'checkingAssessments ASSESSMENTS_CHECKED':
      return e.type === 'ASSESSMENTS_CHECKED' && e.missing > 0 ? { ...c, missingAssessments: e.missing } : c;
    case 'assessmentSweep ASSESSMENTS_CHECKED':
      return e.type === 'ASSESSMENTS_CHECKED' && e.missing > 0
        ? {
            ...c,
            missingAssessments: e.missing,
            errors: [...c.errors, { phase: 'assessmentSweep', message: 'finding assessment incomplete' }],
          }
        : c;
    case 'reconciling RECONCILED':
      return { ...c, reconciled: true };
    case 'recording RECORDED':
      return { ...c, records: c.records + 1 };
    case 'dispatching DISPATCH':
      return { ...c, dispatched: c.dispatched + 1 };
    default:
      return c;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A step rule, also checkable over a whole graph (every step of every edge). */
function stepRule(r: Omit<PatrolInvariant, 'check'> & { checkStep(step: Step): string | null }): PatrolInvariant {
  return {
    ...r,
    check: (graph) =>
      graph.edges.flatMap((e) => e.steps.map((s) => r.checkStep(s)).filter((m): m is string => m !== null)),
  };
}

/**
 * The run's protocol, step by step: P5 (phases in order) and P6 (each outcome noted). With P1
 * to P4 they are the Patrol kind's invariants, which kill every single-point mutant of
 * `machines/patrol.json`.
 */
export const PATROL_PROTOCOL_INVARIANTS: readonly PatrolInvariant[] = [
  stepRule({
    id: 'P5',
    name: 'phases in order',
    sentence:
      'Each event leads to the phase the run takes next (gates, triage, main pass, detection, evaluation when a signal is unmatched, assessments, the sweep when one is missing, reconcile on full runs, record, dispatch), and a failed phase goes to recording.',
    checkStep: ({ before, event, after }) => {
      const expected = expectedState(String(before.value), before.context, event);
      return String(after.value) === expected
        ? null
        : `${event.type} in ${String(before.value)} went to ${String(after.value)}, not ${expected}`;
    },
  }),
  stepRule({
    id: 'P6',
    name: 'each outcome noted',
    sentence:
      'Each phase writes its outcome into the run: the run type, triage flags, reports, signals and the report budget, verdicts missing, the reconcile, the record, dispatches and every error with its phase.',
    checkStep: ({ before, event, after }) => {
      const expected = expectedContext(String(before.value), before.context, event);
      const wrong = FIELDS.filter((f) => !same(after.context[f], expected[f]));
      return wrong.length === 0
        ? null
        : `${event.type} in ${String(before.value)} left ${wrong.map((f) => `${f}=${JSON.stringify(after.context[f])} (expected ${JSON.stringify(expected[f])})`).join(', ')}`;
    },
  }),
];
