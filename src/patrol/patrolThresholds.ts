import { z } from 'zod';
import type { SignalThresholds } from './Signal.js';

const HOUR_MS = 3_600_000;

/**
 * The analysis thresholds (percentages): a watch level under which nothing is
 * worth a look, a warning level, and for disks and storage a critical level.
 * Triage and the finding checks use all of them; signal detection only the
 * node warnings and the storage warning and critical levels.
 */
export const PatrolThresholds = z.object({
  nodeCpuWatch: z.number(),
  nodeCpuWarning: z.number(),
  nodeMemWatch: z.number(),
  nodeMemWarning: z.number(),
  guestMemWatch: z.number(),
  guestMemWarning: z.number(),
  guestDiskWatch: z.number(),
  guestDiskWarning: z.number(),
  guestDiskCritical: z.number(),
  storageWatch: z.number(),
  storageWarning: z.number(),
  storageCritical: z.number(),
});
export type PatrolThresholds = z.infer<typeof PatrolThresholds>;

/**
 * The signal thresholds used for a field that is missing or 0: storage 75 / 95,
 * CPU 70, memory 80, backups stale after 48 hours.
 */
export const DEFAULT_SIGNAL_THRESHOLDS: Readonly<SignalThresholds> = {
  storageWarning: 75,
  storageCritical: 95,
  highCpu: 70,
  highMemory: 80,
  backupStaleMs: 48 * HOUR_MS,
};

/** The analysis thresholds when no alert settings are known. */
export const DEFAULT_PATROL_THRESHOLDS: Readonly<PatrolThresholds> = {
  nodeCpuWatch: 75,
  nodeCpuWarning: 85,
  nodeMemWatch: 75,
  nodeMemWarning: 85,
  guestMemWatch: 80,
  guestMemWarning: 88,
  guestDiskWatch: 75,
  guestDiskWarning: 85,
  guestDiskCritical: 92,
  storageWatch: 70,
  storageWarning: 80,
  storageCritical: 90,
};

/**
 * The user's alert trigger levels (percentages) the analysis thresholds derive
 * from. A missing, zero or negative field takes its default: node CPU 80, node
 * memory 85, guest memory 85, guest disk 90, storage 85.
 */
export const AlertThresholds = z.object({
  nodeCpu: z.optional(z.number()),
  nodeMemory: z.optional(z.number()),
  guestMemory: z.optional(z.number()),
  guestDisk: z.optional(z.number()),
  storage: z.optional(z.number()),
});
export type AlertThresholds = z.infer<typeof AlertThresholds>;

/** The alert trigger levels used for fields the settings leave unset. */
export const DEFAULT_ALERT_THRESHOLDS: Readonly<Required<AlertThresholds>> = {
  nodeCpu: 80,
  nodeMemory: 85,
  guestMemory: 85,
  guestDisk: 90,
  storage: 85,
};

/**
 * A derived watch level: at least 10, at most 99.
 *
 * @example
 * clampThreshold(5); // 10
 * clampThreshold(105); // 99
 */
export function clampThreshold(value: number): number {
  return Math.min(99, Math.max(10, value));
}

/** How analysis thresholds follow the alert levels. */
export interface ThresholdModeOptions {
  /**
   * `false` (default, "exact"): warn at the alert level, watch 5 below, critical
   * 5 above (not clamped: storage 98 gives 103). `true` ("proactive"): warn
   * ahead of the alert (node 5 below, disk and storage 8 below, critical 3
   * below, watch 12 to 15 below), every level clamped to 10..99.
   */
  proactive?: boolean;
}

/**
 * The analysis thresholds from the user's alert settings, or the defaults
 * ({@link DEFAULT_PATROL_THRESHOLDS}) when there are none.
 *
 * @example
 * patrolThresholdsFromAlerts({ storage: 85 }).storageCritical; // 90
 * patrolThresholdsFromAlerts({ storage: 85 }, { proactive: true }).storageWarning; // 77
 * patrolThresholdsFromAlerts(undefined).nodeCpuWarning; // 85
 */
export function patrolThresholdsFromAlerts(
  alerts: AlertThresholds | undefined,
  options: ThresholdModeOptions = {},
): PatrolThresholds {
  if (alerts === undefined) return { ...DEFAULT_PATROL_THRESHOLDS };
  const level = (field: keyof AlertThresholds) => {
    const value = alerts[field];
    return value !== undefined && value > 0 ? value : DEFAULT_ALERT_THRESHOLDS[field];
  };
  const cpu = level('nodeCpu');
  const mem = level('nodeMemory');
  const guestMem = level('guestMemory');
  const disk = level('guestDisk');
  const storage = level('storage');
  const c = clampThreshold;
  if (options.proactive) {
    return {
      nodeCpuWatch: c(cpu - 15),
      nodeCpuWarning: c(cpu - 5),
      nodeMemWatch: c(mem - 15),
      nodeMemWarning: c(mem - 5),
      guestMemWatch: c(guestMem - 12),
      guestMemWarning: c(guestMem - 5),
      guestDiskWatch: c(disk - 15),
      guestDiskWarning: c(disk - 8),
      guestDiskCritical: c(disk - 3),
      storageWatch: c(storage - 15),
      storageWarning: c(storage - 8),
      storageCritical: c(storage - 3),
    };
  }
  return {
    nodeCpuWatch: c(cpu - 5),
    nodeCpuWarning: cpu,
    nodeMemWatch: c(mem - 5),
    nodeMemWarning: mem,
    guestMemWatch: c(guestMem - 5),
    guestMemWarning: guestMem,
    guestDiskWatch: c(disk - 5),
    guestDiskWarning: disk,
    guestDiskCritical: disk + 5,
    storageWatch: c(storage - 5),
    storageWarning: storage,
    storageCritical: storage + 5,
  };
}

/**
 * The signal thresholds from analysis thresholds: storage warning and critical
 * as they are, CPU from the node CPU warning, memory from the node memory
 * warning; a missing or 0 field takes {@link DEFAULT_SIGNAL_THRESHOLDS}.
 * Backups are stale after 48 hours, whatever the settings.
 *
 * @example
 * signalThresholdsFromPatrol({}); // { storageWarning: 75, storageCritical: 95, highCpu: 70, highMemory: 80, backupStaleMs: 172800000 }
 * signalThresholdsFromPatrol(patrolThresholdsFromAlerts({})).highCpu; // 80
 */
export function signalThresholdsFromPatrol(t: Partial<PatrolThresholds>): SignalThresholds {
  const or = (value: number | undefined, fallback: number) => (value ? value : fallback);
  const d = DEFAULT_SIGNAL_THRESHOLDS;
  return {
    storageWarning: or(t.storageWarning, d.storageWarning),
    storageCritical: or(t.storageCritical, d.storageCritical),
    highCpu: or(t.nodeCpuWarning, d.highCpu),
    highMemory: or(t.nodeMemWarning, d.highMemory),
    backupStaleMs: d.backupStaleMs,
  };
}
