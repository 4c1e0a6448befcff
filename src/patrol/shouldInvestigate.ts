import type { Finding } from './Finding.js';

const MINUTE = 60_000;

/** An investigation may be retried this many times in all. */
export const MAX_INVESTIGATION_ATTEMPTS = 3;

/**
 * How long after an investigation another may start, by its outcome: 10
 * minutes after a timeout, 20 after a failed fix or failed fix verification,
 * an hour otherwise.
 *
 * @example
 * investigationCooldownMs('timed_out'); // 600000
 */
export function investigationCooldownMs(outcome: Finding['investigationOutcome']): number {
  if (outcome === 'timed_out') return 10 * MINUTE;
  if (outcome === 'fix_failed' || outcome === 'fix_verification_failed') return 20 * MINUTE;
  return 60 * MINUTE;
}

const TERMINAL_OUTCOMES = new Set<string>([
  'fix_verified',
  'resolved',
  'fix_rejected',
  'cannot_fix',
  'needs_attention',
  'fix_verification_unknown',
]);

/** The fields {@link shouldInvestigate} reads; a whole {@link Finding} will do. */
export type InvestigationCandidate = Pick<
  Finding,
  | 'severity'
  | 'resolvedAt'
  | 'suppressed'
  | 'dismissedReason'
  | 'snoozedUntil'
  | 'investigationStatus'
  | 'investigationOutcome'
  | 'investigationAttempts'
  | 'lastInvestigatedAt'
>;

/**
 * Whether a finding may start an autonomous investigation now. No when any of
 * these holds, yes otherwise:
 *
 * 1. autonomy is `''` or `'monitor'` (any other level passes);
 * 2. it is resolved, suppressed or dismissed;
 * 3. it is snoozed (`now` before `snoozedUntil`);
 * 4. a fix is already queued;
 * 5. its last outcome is final: fix verified, resolved, fix rejected, cannot
 *    fix, needs attention, fix verification unknown;
 * 6. its severity is below warning;
 * 7. an investigation is running;
 * 8. it was investigated {@link MAX_INVESTIGATION_ATTEMPTS} times already;
 * 9. the last investigation is more recent than its cooldown
 *    ({@link investigationCooldownMs}); exactly at the cooldown it may start.
 *
 * @example
 * shouldInvestigate({ severity: 'warning', investigationAttempts: 0 }, 'approval', Date.now()); // true
 * shouldInvestigate({ severity: 'warning', investigationAttempts: 0 }, 'monitor', Date.now()); // false
 */
export function shouldInvestigate(finding: InvestigationCandidate, autonomy: string, now: number): boolean {
  if (autonomy === '' || autonomy === 'monitor') return false;
  if (finding.resolvedAt !== undefined || finding.suppressed || finding.dismissedReason !== undefined) return false;
  if (finding.snoozedUntil !== undefined && now < finding.snoozedUntil) return false;
  const outcome = finding.investigationOutcome;
  if (outcome === 'fix_queued') return false;
  if (outcome !== undefined && TERMINAL_OUTCOMES.has(outcome)) return false;
  if (finding.severity !== 'warning' && finding.severity !== 'critical') return false;
  if (finding.investigationStatus === 'running') return false;
  if (finding.investigationAttempts >= MAX_INVESTIGATION_ATTEMPTS) return false;
  if (finding.lastInvestigatedAt !== undefined && now - finding.lastInvestigatedAt < investigationCooldownMs(outcome))
    return false;
  return true;
}
