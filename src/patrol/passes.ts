import type { ExecutionProfile } from '../index.js';
import type { Finding } from './Finding.js';
import type { Signal } from './Signal.js';

/*
 * The three model passes of a run and what each is given: a session id (a
 * forensic label), the execution profile of its fresh safety session, the
 * tools it may call, a turn budget, and for the evaluation pass a report
 * budget.
 */

/** The names of the finding tools a model pass calls. */
export const PATROL_TOOLS = {
  getFindings: 'patrol_get_findings',
  reportFinding: 'patrol_report_finding',
  assessFinding: 'patrol_assess_finding',
} as const;

/** The run's id for the finding that says the analysis itself failed; never counted as unassessed. */
export const RUNTIME_FINDING_ID = '9cf4e402ad25507d';

/** A model pass's name. */
export type PassName = 'main' | 'evaluation' | 'assessment';

/** What a model pass is asked to do, and within what. */
export interface PassRequest {
  pass: PassName;
  /** A label for logs and recordings: `patrol-main`, `patrol-eval`, `patrol-assess`. */
  sessionId: string;
  /** The execution profile of the pass's fresh safety session. */
  profile: ExecutionProfile;
  /** The tools the pass may call; `null`: every tool the profile allows. */
  allowedTools: string[] | null;
  maxTurns: number;
  /** Evaluation pass only: reports accepted before the report tool refuses. */
  maxFindingReports?: number;
  /** Evaluation pass only: the signals to account for. */
  signals?: Signal[];
  /** Assessment sweep only: the findings to give a verdict on. */
  pending?: Finding[];
}

/**
 * The main pass's turn budget: 5 + 3 per triage flag, between 8 and 40; a
 * quick run always gets 4.
 *
 * @example
 * triageMaxTurns(3); // 14
 * triageMaxTurns(3, 'quick'); // 4
 */
export function triageMaxTurns(flagCount: number, depth: 'normal' | 'quick' = 'normal'): number {
  if (depth === 'quick') return 4;
  return Math.min(40, Math.max(8, 5 + 3 * flagCount));
}

/**
 * A turn budget by inventory size: 20 plus 5 per 50 resources, at most 80
 * (quick: 10 plus 5 per 50, at most 30). The reference defines it and tests it
 * but sizes its runs with {@link triageMaxTurns}; it is here for runs that
 * have no triage.
 *
 * @example
 * patrolMaxTurns(100); // 30
 */
export function patrolMaxTurns(resourceCount: number, depth: 'normal' | 'quick' = 'normal'): number {
  const steps = Math.floor(resourceCount / 50) * 5;
  return depth === 'quick' ? Math.min(30, 10 + steps) : Math.min(80, 20 + steps);
}

/**
 * The assessment sweep's turn budget: one per pending finding plus 2, at most 12.
 *
 * @example
 * sweepMaxTurns(1); // 3
 */
export function sweepMaxTurns(pendingCount: number): number {
  return Math.min(pendingCount + 2, 12);
}

const TOOLS_BY_TYPE: Array<[readonly string[], readonly string[]]> = [
  [['docker', 'app-container'], ['pulse_docker']],
  [
    ['storage', 'physical_disk', 'physical-disk', 'pbs', 'backup'],
    ['pulse_metrics', 'pulse_storage'],
  ],
  [['k8s-cluster', 'k8s-node', 'k8s-pod', 'k8s-deployment', 'k8s-namespace', 'kubernetes'], ['pulse_kubernetes']],
  [['pmg'], ['pulse_pmg']],
  [['network-endpoint', 'discovery'], ['pulse_discovery']],
  [['agent', 'host', 'truenas', 'node', 'vm', 'system-container', 'container', 'service'], ['pulse_metrics']],
];

/**
 * The tools a scoped run's main pass gets for the resource types in scope:
 * `pulse_query`, the evidence tools of those types, then the finding tools.
 * `null` (every tool the detection profile allows) when a type is unknown.
 *
 * @example
 * detectionToolsForResourceTypes(['vm']); // ['pulse_query', 'pulse_metrics', 'patrol_get_findings', 'patrol_report_finding', 'patrol_assess_finding']
 */
export function detectionToolsForResourceTypes(types: readonly string[]): string[] | null {
  const tools = ['pulse_query'];
  for (const type of types) {
    const entry = TOOLS_BY_TYPE.find(([names]) => names.includes(type));
    if (!entry) return null;
    for (const tool of entry[1]) if (!tools.includes(tool)) tools.push(tool);
  }
  return [...tools, PATROL_TOOLS.getFindings, PATROL_TOOLS.reportFinding, PATROL_TOOLS.assessFinding];
}

/**
 * The main pass: session `patrol-main`, detection profile, every allowed tool
 * for a full run (the scoped projection for a scoped one), turns from triage.
 *
 * @example
 * mainPassRequest({ flagCount: 0 }).maxTurns; // 8
 */
export function mainPassRequest(o: {
  flagCount: number;
  depth?: 'normal' | 'quick';
  scopeResourceTypes?: readonly string[];
}): PassRequest {
  return {
    pass: 'main',
    sessionId: 'patrol-main',
    profile: 'detection',
    allowedTools: o.scopeResourceTypes ? detectionToolsForResourceTypes(o.scopeResourceTypes) : null,
    maxTurns: triageMaxTurns(o.flagCount, o.depth),
  };
}

/**
 * The evaluation pass for signals no finding matched: session `patrol-eval`,
 * detection profile, 5 turns, a report budget equal to the number of
 * signals; only the report tool when the pass is shown a complete snapshot of
 * active findings, the findings read tool too when not.
 *
 * @example
 * evaluationPassRequest([s1, s2], true); // { sessionId: 'patrol-eval', allowedTools: ['patrol_report_finding'], maxTurns: 5, maxFindingReports: 2, ... }
 */
export function evaluationPassRequest(unmatched: readonly Signal[], snapshotComplete: boolean): PassRequest {
  return {
    pass: 'evaluation',
    sessionId: 'patrol-eval',
    profile: 'detection',
    allowedTools: snapshotComplete
      ? [PATROL_TOOLS.reportFinding]
      : [PATROL_TOOLS.getFindings, PATROL_TOOLS.reportFinding],
    maxTurns: 5,
    maxFindingReports: unmatched.length,
    signals: [...unmatched],
  };
}

/**
 * The assessment sweep for active findings the earlier passes left without a
 * verdict: session `patrol-assess`, detection profile, only the assess tool,
 * {@link sweepMaxTurns} turns.
 *
 * @example
 * assessmentSweepRequest([finding]).maxTurns; // 3
 */
export function assessmentSweepRequest(pending: readonly Finding[]): PassRequest {
  return {
    pass: 'assessment',
    sessionId: 'patrol-assess',
    profile: 'detection',
    allowedTools: [PATROL_TOOLS.assessFinding],
    maxTurns: sweepMaxTurns(pending.length),
    pending: [...pending],
  };
}

/**
 * The findings that still need a verdict: those seeded into the run or read by
 * the model, minus those assessed, resolved or created in this run, minus the
 * runtime finding; sorted, each once.
 *
 * @example
 * missingAssessments({ seeded: ['a', 'b'], queried: ['c'], assessed: ['a'], resolved: [], created: [] }); // ['b', 'c']
 */
export function missingAssessments(o: {
  seeded: readonly string[];
  queried: readonly string[];
  assessed: readonly string[];
  resolved: readonly string[];
  created: readonly string[];
}): string[] {
  const done = new Set([...o.assessed, ...o.resolved, ...o.created, RUNTIME_FINDING_ID]);
  return [...new Set([...o.seeded, ...o.queried])].filter((id) => !done.has(id)).sort();
}

/**
 * The evidence an assessment prompt shows of a finding: at most 500
 * characters, then `…`.
 *
 * @example
 * sweepEvidence('x'.repeat(600)).length; // 501
 */
export function sweepEvidence(evidence: string): string {
  return evidence.length > 500 ? `${evidence.slice(0, 500)}…` : evidence;
}
