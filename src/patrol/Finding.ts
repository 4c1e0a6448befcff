import { z } from 'zod';
import { Severity } from './Signal.js';

/** What a finding is about. Only `performance` and `capacity` resolve by simply no longer being seen. */
export const FINDING_CATEGORIES = ['performance', 'capacity', 'reliability', 'backup', 'security', 'general'] as const;
export const FindingCategory = z.enum(FINDING_CATEGORIES);
export type FindingCategory = z.infer<typeof FindingCategory>;

export const INVESTIGATION_STATUSES = ['pending', 'running', 'completed', 'failed', 'needs_attention'] as const;
export const InvestigationStatus = z.enum(INVESTIGATION_STATUSES);
export type InvestigationStatus = z.infer<typeof InvestigationStatus>;

export const INVESTIGATION_OUTCOMES = [
  'resolved',
  'fix_queued',
  'fix_executed',
  'fix_failed',
  'fix_rejected',
  'fix_verified',
  'fix_verification_failed',
  'fix_verification_unknown',
  'needs_attention',
  'cannot_fix',
  'timed_out',
] as const;
export const InvestigationOutcome = z.enum(INVESTIGATION_OUTCOMES);
export type InvestigationOutcome = z.infer<typeof InvestigationOutcome>;

/** Why an operator dismissed a finding; `suppressed` is what suppressing writes. */
export const DISMISS_REASONS = ['not_an_issue', 'expected_behavior', 'will_fix_later', 'suppressed'] as const;
export const DismissReason = z.enum(DISMISS_REASONS);
export type DismissReason = z.infer<typeof DismissReason>;

/** Where a finding is in its loop, derived from its fields ({@link deriveLoopState}). */
export const LOOP_STATES = [
  'detected',
  'investigating',
  'needs_attention',
  'remediation_planned',
  'remediating',
  'remediation_failed',
  'timed_out',
  'resolved',
  'snoozed',
  'dismissed',
  'suppressed',
] as const;
export const LoopState = z.enum(LOOP_STATES);
export type LoopState = z.infer<typeof LoopState>;

export const LIFECYCLE_EVENT_TYPES = [
  'detected',
  'resolved',
  'auto_resolved',
  'regressed',
  'reminded',
  'suppression_lifted',
  'seen_while_suppressed',
  'content_replaced',
  'duplicate_merged',
  'dismissed',
  'undismissed',
  'acknowledged',
  'snoozed',
  'unsnoozed',
  'suppressed',
  'investigation',
  'loop_transition_violation',
] as const;
export const LifecycleEventType = z.enum(LIFECYCLE_EVENT_TYPES);
export type LifecycleEventType = z.infer<typeof LifecycleEventType>;

/** One entry of a finding's history (at most {@link LIFECYCLE_MAX} are kept, newest last). */
export const LifecycleEvent = z.object({
  at: z.number(),
  type: LifecycleEventType,
  message: z.optional(z.string()),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
});
export type LifecycleEvent = z.infer<typeof LifecycleEvent>;

/** How many lifecycle events a finding keeps. */
export const LIFECYCLE_MAX = 50;

/**
 * A finding: one issue on one resource, filed by a model pass (or your own
 * code), kept across runs under a stable id. Times are epoch milliseconds.
 */
export const Finding = z.object({
  id: z.string().min(1),
  key: z.string(),
  severity: Severity,
  category: FindingCategory,
  resourceId: z.string(),
  resourceName: z.string(),
  resourceType: z.string(),
  node: z.optional(z.string()),
  title: z.string(),
  description: z.string(),
  impact: z.optional(z.string()),
  recommendation: z.optional(z.string()),
  evidence: z.optional(z.string()),
  source: z.optional(z.string()),
  detectedAt: z.number(),
  lastSeenAt: z.number(),
  resolvedAt: z.optional(z.number()),
  autoResolved: z.optional(z.boolean()),
  resolveReason: z.optional(z.string()),
  acknowledgedAt: z.optional(z.number()),
  snoozedUntil: z.optional(z.number()),
  dismissedReason: z.optional(DismissReason),
  userNote: z.optional(z.string()),
  timesRaised: z.number().int(),
  suppressed: z.optional(z.boolean()),
  remindAt: z.optional(z.number()),
  remindCount: z.optional(z.number().int()),
  investigationStatus: z.optional(InvestigationStatus),
  investigationOutcome: z.optional(InvestigationOutcome),
  lastInvestigatedAt: z.optional(z.number()),
  investigationAttempts: z.number().int(),
  loopState: z.optional(LoopState),
  lifecycle: z.array(LifecycleEvent),
  regressionCount: z.number().int(),
  lastRegressionAt: z.optional(z.number()),
  previousResolvedFixSummary: z.optional(z.string()),
});
export type Finding = z.infer<typeof Finding>;

/** The longest name a report may give (key, resource, node, title, source), in characters. */
const MAX_REPORT_NAME = 512;
/** The longest text a report may give (description, impact, recommendation, evidence), in characters. */
const MAX_REPORT_TEXT = 16_384;
/** A report comes from a model, which tool output can steer: a 5 MB title would be stored and shown for ever. */
const name = () => z.string().max(MAX_REPORT_NAME);
const text = () => z.string().max(MAX_REPORT_TEXT);

/**
 * What a report carries: the finding's content. The store fills in the id
 * (from resource, category and normalised key), times and counters. Names are
 * at most 512 characters and texts at most 16,384: a longer one is refused
 * (`invalid_report`, naming the field), never cut.
 */
export const FindingReport = z.object({
  key: name(),
  severity: Severity,
  category: FindingCategory,
  resourceId: name().min(1),
  resourceName: name(),
  resourceType: name(),
  node: z.optional(name()),
  title: name().min(1),
  description: text(),
  impact: z.optional(text()),
  recommendation: z.optional(text()),
  evidence: z.optional(text()),
  source: z.optional(name()),
});
export type FindingReport = z.infer<typeof FindingReport>;

/**
 * A finding is active while it is not resolved, snoozed, suppressed or dismissed.
 *
 * @example
 * isActiveFinding(finding, Date.now()); // true for a fresh report
 */
export function isActiveFinding(f: Finding, now: number): boolean {
  return (
    f.resolvedAt === undefined &&
    !(f.snoozedUntil !== undefined && now < f.snoozedUntil) &&
    !f.suppressed &&
    f.dismissedReason === undefined
  );
}

/**
 * The loop state a finding's fields put it in; the first rule that applies
 * wins: suppressed, resolved (or a verified fix), snoozed, dismissed,
 * investigating, needs attention (status), remediation planned, remediating,
 * remediation failed, needs attention (outcome), timed out, detected.
 *
 * @example
 * deriveLoopState({ ...finding, investigationStatus: 'running' }, now); // 'investigating'
 */
export function deriveLoopState(f: Finding, now: number): LoopState {
  const outcome = f.investigationOutcome;
  if (f.suppressed) return 'suppressed';
  if (f.resolvedAt !== undefined || outcome === 'fix_verified') return 'resolved';
  if (f.snoozedUntil !== undefined && now < f.snoozedUntil) return 'snoozed';
  if (f.dismissedReason !== undefined) return 'dismissed';
  if (f.investigationStatus === 'running') return 'investigating';
  if (f.investigationStatus === 'needs_attention') return 'needs_attention';
  if (outcome === 'fix_queued') return 'remediation_planned';
  if (outcome === 'fix_executed') return 'remediating';
  if (outcome === 'fix_failed' || outcome === 'fix_verification_failed') return 'remediation_failed';
  if (
    outcome === 'fix_rejected' ||
    outcome === 'fix_verification_unknown' ||
    outcome === 'needs_attention' ||
    outcome === 'cannot_fix'
  )
    return 'needs_attention';
  if (outcome === 'timed_out') return 'timed_out';
  return 'detected';
}

const RESTRICTED: Partial<Record<LoopState, readonly LoopState[]>> = {
  resolved: ['resolved', 'detected'],
  suppressed: ['suppressed', 'detected'],
  dismissed: ['dismissed', 'detected', 'suppressed', 'resolved'],
  snoozed: ['snoozed', 'detected', 'resolved', 'suppressed', 'dismissed'],
};

/**
 * Whether a finding may go from one loop state to another. A finding with no
 * state yet, or staying where it is, may go anywhere; a resolved one only back
 * to detected; a suppressed one only to detected; a dismissed one to
 * detected, suppressed or resolved; a snoozed one to detected, resolved,
 * suppressed or dismissed; the working states anywhere. Unknown names: never.
 *
 * @example
 * isAllowedLoopTransition('resolved', 'investigating'); // false
 * isAllowedLoopTransition('investigating', 'resolved'); // true
 */
export function isAllowedLoopTransition(from: string | undefined, to: string): boolean {
  if (!LoopState.safeParse(to).success) return false;
  if (from === undefined || from === '' || from === to) return true;
  if (!LoopState.safeParse(from).success) return false;
  const allowed = RESTRICTED[from as LoopState];
  return allowed === undefined || allowed.includes(to as LoopState);
}
