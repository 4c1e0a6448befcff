import type { Finding } from './Finding.js';

/** Keys a deterministic verifier can re-check; other keys have none. */
export const VERIFIER_KEYS = [
  'backup-stale',
  'cpu-high',
  'memory-high',
  'disk-high',
  'guest-unreachable',
  'smart-failure',
  'backup-failed',
] as const;

/** At most this many verifications per run; the rest wait for the next run. */
export const MAX_VERIFICATIONS_PER_RUN = 3;

/** Resolve reasons the reconcile writes. */
export const STALE_REASONS = {
  notDetected: 'No longer detected by patrol',
  verified: 'Deterministic verification confirmed the issue cleared',
} as const;

/** What stale reconcile will do: resolve these outright, verify those first. */
export interface StalePlan {
  /** Performance and capacity findings nobody re-confirmed: resolved as no longer detected. */
  resolve: string[];
  /** Findings of other categories with a verifier key: resolved only if their verifier confirms (at most 3). */
  verify: string[];
}

/**
 * Which seeded findings a full run may close because the run did not see them
 * again. Nothing when the run had errors or nothing was seeded. A seeded
 * finding that was reported, assessed (any verdict, "uncertain" included) or
 * resolved in the run is left alone; of the rest, performance and capacity
 * findings are resolved, findings with a verifier key are verified (at most
 * {@link MAX_VERIFICATIONS_PER_RUN}), others stay active.
 *
 * @example
 * staleFindingPlan({ findings, seeded: ['a'], touched: [], resolved: [], runHadErrors: false }); // { resolve: ['a'], verify: [] }
 */
export function staleFindingPlan(o: {
  findings: Readonly<Record<string, Finding>>;
  seeded: readonly string[];
  touched: readonly string[];
  resolved: readonly string[];
  runHadErrors: boolean;
}): StalePlan {
  const plan: StalePlan = { resolve: [], verify: [] };
  if (o.runHadErrors || o.seeded.length === 0) return plan;
  const skip = new Set([...o.touched, ...o.resolved]);
  for (const id of o.seeded) {
    const f = o.findings[id];
    if (!f || skip.has(id) || f.resolvedAt !== undefined) continue;
    if (f.category === 'performance' || f.category === 'capacity') plan.resolve.push(id);
    else if ((VERIFIER_KEYS as readonly string[]).includes(f.key) && plan.verify.length < MAX_VERIFICATIONS_PER_RUN)
      plan.verify.push(id);
  }
  return plan;
}
