import type { Detector, DetectorContext, Signal, ToolCallRecord } from './Signal.js';
import { inputField, numberOf, objectsOf, parseToolOutput, parseToolTime, textOf, type Json } from './toolOutput.js';

/*
 * The reference product's detectors (the Pulse preset): SMART health, storage
 * pool usage, CPU and memory, failed and stale backups, read from the outputs
 * of its `pulse_storage` and `pulse_metrics` tools. Everything else (its
 * alerts tool included, on purpose: alerts are not evidence the model missed
 * something) yields no signal.
 */

/** Evidence carried by a signal: the raw output, cut to this many characters. */
export const EVIDENCE_MAX = 500;

/**
 * Text cut to {@link EVIDENCE_MAX} characters.
 *
 * @example
 * truncateEvidence('x'.repeat(600)).length; // 500
 */
export function truncateEvidence(text: string): string {
  return text.length > EVIDENCE_MAX ? text.slice(0, EVIDENCE_MAX) : text;
}

const pct = (n: number) => n.toFixed(1);

// ---------------------------------------------------------------- SMART

const COUNTERS = [
  { field: 'reallocatedSectors', label: 'reallocated sectors', critical: false },
  { field: 'pendingSectors', label: 'pending sectors', critical: true },
  { field: 'offlineUncorrectable', label: 'offline uncorrectable', critical: true },
  { field: 'udmaCrcErrors', label: 'UDMA CRC errors', critical: false },
  { field: 'mediaErrors', label: 'media errors', critical: true },
] as const;

const HEALTHY = new Set(['', 'UNKNOWN', 'PASSED', 'OK']);

function smartSignal(disk: Json, fallbackNode: string, evidence: string, toolCallId: string): Signal | undefined {
  const health = textOf(disk.health).toUpperCase();
  const healthFailed = !HEALTHY.has(health);
  const sources = [disk.attributes, disk.smart_attributes, disk.smartAttributes].filter(
    (s): s is Json => typeof s === 'object' && s !== null,
  );
  const counters = COUNTERS.map((c) => {
    const found = sources.map((s) => s[c.field]).find((v) => v !== undefined && v !== null);
    return { ...c, value: numberOf(found) };
  }).filter((c) => c.value > 0);
  if (!healthFailed && counters.length === 0) return undefined;
  const name = [disk.device, disk.dev_path, disk.model, disk.id].map(textOf).find((s) => s !== '') ?? 'disk';
  const id = textOf(disk.id);
  const resourceId = id || fallbackNode || name;
  const listed = counters.map((c) => `${c.label}=${c.value}`).join(', ');
  const summary = healthFailed
    ? `SMART health check: ${health} for ${name}${listed ? `; counters: ${listed}` : ''}`
    : `SMART counters indicate disk risk for ${name}: ${listed}`;
  return {
    type: 'smart_failure',
    resourceId,
    resourceName: name,
    resourceType: id ? 'disk' : fallbackNode ? 'node' : 'disk',
    severity: healthFailed || counters.some((c) => c.critical) ? 'critical' : 'warning',
    category: 'reliability',
    summary,
    evidence,
    toolCallId,
  };
}

function storageDiskSignals(data: Json, evidence: string, callId: string): Signal[] {
  const out: Signal[] = [];
  const top = textOf(data.node);
  for (const disk of objectsOf(data.disks)) {
    const s = smartSignal(disk, top || textOf(disk.node), evidence, callId);
    if (s) out.push(s);
  }
  for (const host of objectsOf(data.hosts)) {
    for (const disk of objectsOf(host.smart)) {
      const s = smartSignal(disk, textOf(host.hostname), evidence, callId);
      if (s) out.push(s);
    }
  }
  return out;
}

function metricsDiskSignals(data: Json, evidence: string, callId: string): Signal[] {
  return objectsOf(data.disks).flatMap((disk) => smartSignal(disk, textOf(disk.node), evidence, callId) ?? []);
}

// ---------------------------------------------------------------- storage pools

function poolSignals(data: Json, ctx: DetectorContext, evidence: string, callId: string): Signal[] {
  const { storageWarning, storageCritical } = ctx.thresholds;
  return objectsOf(data.pools).flatMap((pool): Signal[] => {
    const usage = numberOf(pool.usage_percent);
    if (!(usage > storageWarning)) return [];
    const name = textOf(pool.name) || textOf(pool.id);
    return [
      {
        type: 'high_disk',
        resourceId: textOf(pool.id) || textOf(pool.name),
        resourceName: name,
        resourceType: 'storage',
        severity: usage > storageCritical ? 'critical' : 'warning',
        category: 'capacity',
        summary: `Storage pool ${name} at ${pct(usage)}% usage`,
        evidence,
        toolCallId: callId,
      },
    ];
  });
}

// ---------------------------------------------------------------- CPU and memory

function performanceSignals(data: Json, ctx: DetectorContext, evidence: string, callId: string): Signal[] {
  const resources = Array.isArray(data.resources) ? objectsOf(data.resources) : [data];
  const out: Signal[] = [];
  for (const r of resources) {
    const resourceId = textOf(r.id) || textOf(r.name);
    const resourceName = textOf(r.name) || resourceId;
    if (resourceId === '') continue;
    const base = { resourceId, resourceName, resourceType: textOf(r.type), evidence, toolCallId: callId };
    const cpu = numberOf(r.avg_cpu) > 0 ? numberOf(r.avg_cpu) : numberOf(r.cpu_percent);
    if (cpu > ctx.thresholds.highCpu) {
      out.push({
        ...base,
        type: 'high_cpu',
        severity: 'warning',
        category: 'performance',
        summary: `High CPU usage on ${resourceName}: ${pct(cpu)}%`,
      });
    }
    const mem = numberOf(r.avg_memory) > 0 ? numberOf(r.avg_memory) : numberOf(r.mem_percent);
    if (mem > ctx.thresholds.highMemory) {
      out.push({
        ...base,
        type: 'high_memory',
        severity: 'warning',
        category: 'performance',
        summary: `High memory usage on ${resourceName}: ${pct(mem)}%`,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------- backups

/** A VMID as text: strings trimmed, numbers printed, `0` and anything else empty. */
function vmidOf(v: unknown): string {
  const text = textOf(v);
  return text === '0' ? '' : text;
}

const isSuccess = (status: string) => status === 'ok' || status.includes('success');

/** Whether a backup task failed: a status that is not a success, or an error field, which wins over "running". */
function taskFailed(task: Json): boolean {
  const status = textOf(task.status).toLowerCase();
  let failed = (status !== '' && !isSuccess(status)) || status.includes('error') || status.includes('fail');
  if (status.includes('running') || status.includes('active')) failed = false;
  const error = textOf(task.error);
  if (error !== '' && error !== 'null' && error !== '0') failed = true;
  return failed;
}

interface TaskSeen {
  at: number;
  task: Json;
  resourceId: string;
}

/** The latest task per resource inside the window, in order of first appearance. */
function latestPerResource(seen: TaskSeen[]): TaskSeen[] {
  const latest = new Map<string, TaskSeen>();
  for (const t of seen) {
    const prev = latest.get(t.resourceId);
    if (!prev || t.at >= prev.at) latest.set(t.resourceId, t);
  }
  return [...latest.values()];
}

function failedBackupSignal(t: TaskSeen, evidence: string, callId: string): Signal {
  const status = textOf(t.task.status);
  const vmid = vmidOf(t.task.vmid);
  return {
    type: 'backup_failed',
    resourceId: t.resourceId,
    resourceName: textOf(t.task.vm_name) || vmid || t.resourceId,
    resourceType: 'backup',
    severity: 'warning',
    category: 'backup',
    summary: `Backup task failed: ${status || textOf(t.task.error)}`,
    evidence,
    toolCallId: callId,
  };
}

function backupTaskSignals(data: Json, ctx: DetectorContext, evidence: string, callId: string): Signal[] {
  const since = ctx.now - ctx.thresholds.backupStaleMs;
  const top = textOf(data.node);
  const seen: TaskSeen[] = [];
  for (const task of objectsOf(data.tasks)) {
    const at = parseToolTime(task.end_time) ?? parseToolTime(task.start_time) ?? ctx.now;
    if (at < since) continue;
    const resourceId = vmidOf(task.vmid) || textOf(task.node) || top;
    seen.push({ at, task, resourceId });
  }
  return latestPerResource(seen)
    .filter((t) => taskFailed(t.task))
    .map((t) => failedBackupSignal(t, evidence, callId));
}

function backupSummarySignals(data: Json, ctx: DetectorContext, evidence: string, callId: string): Signal[] {
  const since = ctx.now - ctx.thresholds.backupStaleMs;
  const recent = objectsOf(data.recent_tasks);
  const seen: TaskSeen[] = [];
  for (const task of recent) {
    if (textOf(task.status) === '') continue;
    const at = parseToolTime(task.start_time) ?? ctx.now;
    if (at < since) continue;
    seen.push({ at, task, resourceId: vmidOf(task.vmid) || textOf(task.node) || 'backup' });
  }
  const out = latestPerResource(seen)
    .filter((t) => taskFailed(t.task))
    .map((t) => failedBackupSignal(t, evidence, callId));

  // Staleness is judged only for guests the recent tasks show are being backed up.
  const active = new Set(recent.map((t) => vmidOf(t.vmid)).filter((v) => v !== ''));
  if (active.size === 0) return out;
  const newest = new Map<string, number>();
  for (const entry of [...objectsOf(data.pbs), ...objectsOf(data.pve)]) {
    const vmid = vmidOf(entry.vmid);
    const at = parseToolTime(entry.backup_time);
    if (!active.has(vmid) || at === undefined) continue;
    newest.set(vmid, Math.max(newest.get(vmid) ?? -Infinity, at));
  }
  for (const [vmid, at] of newest) {
    if (at >= since) continue;
    out.push({
      type: 'backup_stale',
      resourceId: vmid,
      resourceName: vmid,
      resourceType: 'backup',
      severity: 'warning',
      category: 'backup',
      // The reference prints "48+" whatever the threshold is; kept so summaries match.
      summary: `No backup completed in 48+ hours for VM/CT ${vmid}`,
      evidence,
      toolCallId: callId,
    });
  }
  return out;
}

// ---------------------------------------------------------------- the two tools

/**
 * `pulse_storage`: by the input's `type`, `disk_health` (SMART), `pools`
 * (usage), `backup_tasks` (failed tasks), `backups` (failed recent tasks and
 * stale backups); no type runs all four, any other type none.
 *
 * @example
 * pulseStorageDetector({ id: 'c1', tool: 'pulse_storage', input: { type: 'pools' }, output: '{"pools":[{"id":"p","usage_percent":99}]}', success: true }, context);
 */
export const pulseStorageDetector: Detector = (call: ToolCallRecord, ctx: DetectorContext) => {
  if (call.tool !== 'pulse_storage') return [];
  const data = parseToolOutput(call.output);
  if (!data) return [];
  const evidence = truncateEvidence(call.output);
  const type = inputField(call.input, 'type');
  const all = type === '';
  return [
    ...(all || type === 'disk_health' ? storageDiskSignals(data, evidence, call.id) : []),
    ...(all || type === 'pools' ? poolSignals(data, ctx, evidence, call.id) : []),
    ...(all || type === 'backup_tasks' ? backupTaskSignals(data, ctx, evidence, call.id) : []),
    ...(all || type === 'backups' ? backupSummarySignals(data, ctx, evidence, call.id) : []),
  ];
};

/**
 * `pulse_metrics`: `performance` (CPU and memory), `disks` (SMART); no type
 * runs both, any other type none.
 *
 * @example
 * pulseMetricsDetector({ id: 'c1', tool: 'pulse_metrics', input: { type: 'performance' }, output: '{"id":"vm1","avg_cpu":95}', success: true }, context);
 */
export const pulseMetricsDetector: Detector = (call: ToolCallRecord, ctx: DetectorContext) => {
  if (call.tool !== 'pulse_metrics') return [];
  const data = parseToolOutput(call.output);
  if (!data) return [];
  const evidence = truncateEvidence(call.output);
  const type = inputField(call.input, 'type');
  const all = type === '';
  return [
    ...(all || type === 'performance' ? performanceSignals(data, ctx, evidence, call.id) : []),
    ...(all || type === 'disks' ? metricsDiskSignals(data, evidence, call.id) : []),
  ];
};

/** The Pulse preset's detectors, in the order they run. */
export const pulseDetectors: readonly Detector[] = [pulseStorageDetector, pulseMetricsDetector];
