import { describe, expect, it } from 'vitest';
import {
  clampThreshold,
  DEFAULT_PATROL_THRESHOLDS,
  patrolThresholdsFromAlerts,
  signalThresholdsFromPatrol,
} from 'assistant-safety/patrol';

const H48 = 48 * 3_600_000;
const signalLevels = (t: ReturnType<typeof signalThresholdsFromPatrol>) => [
  t.storageWarning,
  t.storageCritical,
  t.highCpu,
  t.highMemory,
];

describe('signal thresholds from analysis thresholds', () => {
  it('should fall back to 75 / 95 / 70 / 80 and 48 h for missing or zero fields', () => {
    expect(signalThresholdsFromPatrol({})).toEqual({
      storageWarning: 75,
      storageCritical: 95,
      highCpu: 70,
      highMemory: 80,
      backupStaleMs: H48,
    });
    expect(signalThresholdsFromPatrol({ storageWarning: 0, nodeCpuWarning: 0 }).highCpu).toBe(70);
  });

  it('should take storage, node CPU warning and node memory warning from the user config, and keep 48 h', () => {
    const t = signalThresholdsFromPatrol({
      storageWarning: 85,
      storageCritical: 92,
      nodeCpuWarning: 60,
      nodeMemWarning: 70,
    });
    expect(signalLevels(t)).toEqual([85, 92, 60, 70]);
    expect(t.backupStaleMs).toBe(H48);
  });

  it('should ignore the watch levels and the guest thresholds', () => {
    const t = signalThresholdsFromPatrol({
      nodeCpuWatch: 10,
      guestMemWarning: 11,
      guestDiskCritical: 12,
      storageWatch: 13,
    });
    expect(signalLevels(t)).toEqual([75, 95, 70, 80]);
  });
});

describe('analysis thresholds from alert settings', () => {
  const stock = { nodeCpu: 80, nodeMemory: 85, guestMemory: 85, guestDisk: 90, storage: 85 };

  it('should derive exact-mode levels from the stock alerts: warn at the alert, watch 5 below, critical 5 above', () => {
    expect(patrolThresholdsFromAlerts(stock)).toEqual({
      nodeCpuWatch: 75,
      nodeCpuWarning: 80,
      nodeMemWatch: 80,
      nodeMemWarning: 85,
      guestMemWatch: 80,
      guestMemWarning: 85,
      guestDiskWatch: 85,
      guestDiskWarning: 90,
      guestDiskCritical: 95,
      storageWatch: 80,
      storageWarning: 85,
      storageCritical: 90,
    });
    expect(signalLevels(signalThresholdsFromPatrol(patrolThresholdsFromAlerts(stock)))).toEqual([85, 90, 80, 85]);
  });

  it('should derive proactive-mode levels ahead of the alerts', () => {
    const p = patrolThresholdsFromAlerts(stock, { proactive: true });
    expect([p.nodeCpuWarning, p.nodeMemWarning, p.storageWarning, p.storageCritical]).toEqual([75, 80, 77, 82]);
    expect(signalLevels(signalThresholdsFromPatrol(p))).toEqual([77, 82, 75, 80]);
    const q = patrolThresholdsFromAlerts(
      { nodeCpu: 80, nodeMemory: 90, guestMemory: 85, guestDisk: 90, storage: 95 },
      { proactive: true },
    );
    expect([q.nodeCpuWarning, q.nodeMemWarning, q.nodeCpuWatch, q.nodeMemWatch]).toEqual([75, 85, 65, 75]);
    expect([q.guestMemWatch, q.guestMemWarning, q.guestDiskWatch, q.guestDiskWarning, q.guestDiskCritical]).toEqual([
      73, 80, 75, 82, 87,
    ]);
  });

  it('should derive exact mode from {80, 90, 85, 90, 95} as the reference pins it', () => {
    const t = patrolThresholdsFromAlerts({ nodeCpu: 80, nodeMemory: 90, guestMemory: 85, guestDisk: 90, storage: 95 });
    expect([t.nodeCpuWarning, t.nodeMemWarning, t.nodeCpuWatch, t.nodeMemWatch, t.guestDiskCritical]).toEqual([
      80, 90, 75, 85, 95,
    ]);
  });

  it('should use the defaults without alert settings, giving signals 80 / 90 / 85 / 85', () => {
    expect(patrolThresholdsFromAlerts(undefined)).toEqual(DEFAULT_PATROL_THRESHOLDS);
    expect(signalLevels(signalThresholdsFromPatrol(patrolThresholdsFromAlerts(undefined)))).toEqual([80, 90, 85, 85]);
  });

  it('should fill unset, zero or negative alert fields with 80 / 85 / 85 / 90 / 85', () => {
    expect(patrolThresholdsFromAlerts({})).toEqual(patrolThresholdsFromAlerts(stock));
    expect(patrolThresholdsFromAlerts({ nodeCpu: 0, storage: -3 })).toEqual(patrolThresholdsFromAlerts(stock));
  });

  it('should clamp watch levels to 10..99 and leave exact-mode critical levels unclamped', () => {
    expect([clampThreshold(5), clampThreshold(105), clampThreshold(50)]).toEqual([10, 99, 50]);
    expect(patrolThresholdsFromAlerts({ storage: 98 }).storageCritical).toBe(103);
    expect(patrolThresholdsFromAlerts({ nodeCpu: 12 }).nodeCpuWatch).toBe(10);
    expect(patrolThresholdsFromAlerts({ storage: 12 }, { proactive: true }).storageCritical).toBe(10);
  });

  it('should order the default levels watch < warning < critical', () => {
    const d = DEFAULT_PATROL_THRESHOLDS;
    expect(d.nodeCpuWatch).toBeLessThan(d.nodeCpuWarning);
    expect(d.nodeMemWatch).toBeLessThan(d.nodeMemWarning);
    expect(d.guestMemWatch).toBeLessThan(d.guestMemWarning);
    expect(d.guestDiskWatch).toBeLessThan(d.guestDiskWarning);
    expect(d.guestDiskWarning).toBeLessThan(d.guestDiskCritical);
    expect(d.storageWatch).toBeLessThan(d.storageWarning);
    expect(d.storageWarning).toBeLessThan(d.storageCritical);
  });
});
