import { z } from 'zod';
import { Severity, type Signal } from './Signal.js';

/**
 * What the run learnt about a guest before the model ran: its name and type,
 * and whether it answered a ping (`undefined` or `null`: not probed).
 */
export const GuestIntel = z.object({
  name: z.optional(z.string()),
  guestType: z.optional(z.string()),
  reachable: z.optional(z.nullable(z.boolean())),
});
export type GuestIntel = z.infer<typeof GuestIntel>;

/**
 * `guest_unreachable` signals: one per guest that was probed and did not
 * answer. Their category is `connectivity`, which no finding can have, so
 * they are never matched and always reach the evaluation pass.
 *
 * @example
 * reachabilitySignals({ 'qemu/100': { name: 'db-server', guestType: 'vm', reachable: false } })[0].summary;
 * // 'Guest db-server is running but not responding to ping'
 */
export function reachabilitySignals(intel: Readonly<Record<string, GuestIntel>> | undefined): Signal[] {
  return Object.entries(intel ?? {}).flatMap(([id, guest]): Signal[] => {
    if (guest.reachable !== false) return [];
    const name = guest.name || id;
    return [
      {
        type: 'guest_unreachable',
        resourceId: id,
        resourceName: name,
        resourceType: guest.guestType ?? '',
        severity: 'warning',
        category: 'connectivity',
        summary: `Guest ${name} is running but not responding to ping`,
        evidence: 'ICMP ping from host node returned no response',
      },
    ];
  });
}

/**
 * A deterministic triage observation: a resource, a category (`health`,
 * `reliability`, `backup`, `connectivity`, `anomaly`, `performance`,
 * `capacity`, or your own), a severity, the metric it is about, and why.
 */
export const TriageFlag = z.object({
  resourceId: z.optional(z.string()),
  resourceName: z.optional(z.string()),
  resourceType: z.optional(z.string()),
  category: z.string(),
  severity: z.string(),
  metric: z.optional(z.string()),
  reason: z.string(),
});
export type TriageFlag = z.infer<typeof TriageFlag>;

/** Categories of triage flags that set a floor under the model's decisions, most important first. */
export const DECISION_FLOOR_CATEGORIES = ['health', 'reliability', 'backup', 'connectivity', 'anomaly'] as const;

/** At most this many triage flags become floor signals. */
export const DECISION_FLOOR_MAX = 20;

/**
 * The triage flags that set a floor under the model's decisions: lifecycle
 * evidence (health, reliability, backup, connectivity, anomaly) in that order,
 * at most {@link DECISION_FLOOR_MAX}. Metric-threshold flags (performance,
 * capacity) are left to the detectors.
 *
 * @example
 * decisionFloorFlags(flags).map((f) => f.category); // ['health', 'reliability', 'backup', 'connectivity', 'anomaly']
 */
export function decisionFloorFlags(flags: readonly TriageFlag[]): TriageFlag[] {
  const rank = (f: TriageFlag) => (DECISION_FLOOR_CATEGORIES as readonly string[]).indexOf(f.category);
  return flags
    .filter((f) => rank(f) >= 0)
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
    .slice(0, DECISION_FLOOR_MAX)
    .map(({ f }) => f);
}

/** The finding category a triage flag's category counts as. */
function categoryOfFlag(flag: TriageFlag): string {
  switch (flag.category) {
    case 'performance':
    case 'capacity':
    case 'reliability':
    case 'backup':
      return flag.category;
    case 'health':
    case 'connectivity':
      return 'reliability';
    case 'anomaly': {
      const metric = (flag.metric ?? '').toLowerCase();
      if (metric === 'cpu' || metric === 'memory') return 'performance';
      if (metric === 'disk' || metric === 'usage' || metric === 'storage') return 'capacity';
      return 'general';
    }
    default:
      return 'general';
  }
}

/**
 * Triage flags as signals (`triage_<category>`, tool call
 * `deterministic-triage`, summary and evidence both the flag's reason); a flag
 * with neither resource id nor name is dropped. Health and connectivity count
 * as reliability; an anomaly as performance (CPU, memory), capacity (disk,
 * usage, storage) or general.
 *
 * @example
 * triageFlagsToSignals([{ resourceId: 'pve1', category: 'health', severity: 'CRITICAL', reason: 'Disk sda FAILED' }])[0].category; // 'reliability'
 */
export function triageFlagsToSignals(flags: readonly TriageFlag[]): Signal[] {
  return flags.flatMap((flag): Signal[] => {
    const id = flag.resourceId || flag.resourceName;
    if (!id) return [];
    const severity = Severity.safeParse(flag.severity.toLowerCase());
    return [
      {
        type: `triage_${flag.category}`,
        resourceId: id,
        resourceName: flag.resourceName || id,
        resourceType: flag.resourceType ?? '',
        severity: severity.success ? severity.data : 'watch',
        category: categoryOfFlag(flag),
        summary: flag.reason,
        evidence: flag.reason,
        toolCallId: 'deterministic-triage',
      },
    ];
  });
}
