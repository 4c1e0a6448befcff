/*
 * The Patrol demo: a small fake inventory (two nodes, two storage pools, a
 * failing disk, a failed backup) and a scripted model that analyses it and
 * misses one thing, the failing disk. Deterministic detection finds the SMART
 * failure in the raw output of a call the model itself made, no finding of
 * the run matches it, and the evaluation pass files it. Runs offline in
 * milliseconds; `patrol-demo.ts` prints it, the tests check it.
 */
import {
  EMPTY_FINDING_STORE,
  patrolThresholdsFromAlerts,
  reduceFindings,
  runPatrol,
  signalThresholdsFromPatrol,
  type FindingReport,
  type FindingStore,
  type PatrolPassInput,
  type PatrolRunResult,
  type PatrolStep,
} from 'assistant-safety/patrol';

/** The demo's clock: every run happens at this instant. */
export const DEMO_NOW = Date.parse('2026-08-22T12:00:00Z');
const HOUR = 3_600_000;

/** What the fake infrastructure's tools answer. */
export const DEMO_INVENTORY = {
  performance: {
    resources: [
      { id: 'pve1', name: 'pve1', type: 'node', avg_cpu: 35.2, avg_memory: 61 },
      { id: 'pve2', name: 'pve2', type: 'node', avg_cpu: 92.4, avg_memory: 58 },
    ],
  },
  pools: {
    pools: [
      { id: 'local-lvm', name: 'local-lvm', usage_percent: 62.0, node: 'pve1' },
      { id: 'backup', name: 'backup', usage_percent: 88.5, node: 'pve2' },
    ],
  },
  diskHealth: {
    node: 'pve1',
    disks: [
      { device: '/dev/sda', health: 'PASSED', model: 'Samsung 870' },
      { device: '/dev/sdb', health: 'FAILED', model: 'WD Red', attributes: { pendingSectors: 8 } },
    ],
  },
  backupTasks: {
    node: 'pve2',
    tasks: [
      { vmid: 100, vm_name: 'web', status: 'OK', end_time: new Date(DEMO_NOW - 3 * HOUR).toISOString() },
      {
        vmid: 101,
        vm_name: 'db',
        status: 'ERROR: backup failed',
        end_time: new Date(DEMO_NOW - 2 * HOUR).toISOString(),
      },
    ],
  },
};

/** A finding from an earlier run: the local-lvm pool was filling up; it is at 62 % now. */
export function demoStore(): FindingStore {
  return reduceFindings(EMPTY_FINDING_STORE, {
    type: 'add',
    report: {
      key: 'disk-high',
      severity: 'warning',
      category: 'capacity',
      resourceId: 'local-lvm',
      resourceName: 'local-lvm',
      resourceType: 'storage',
      title: 'Storage pool local-lvm at 87% usage',
      description: 'Thin pool above its warning level',
      evidence: 'usage_percent 87.0',
    },
    now: DEMO_NOW - 24 * HOUR,
  }).store;
}

const json = (v: unknown) => JSON.stringify(v);

/** The demo's inventory tools: reads, each answering from {@link DEMO_INVENTORY}. */
export const demoTools = {
  pulse_metrics: { kind: 'read' as const, run: () => json(DEMO_INVENTORY.performance) },
  pulse_storage: {
    kind: 'read' as const,
    run: (input: unknown) => {
      const type = (input as { type?: string }).type;
      if (type === 'pools') return json(DEMO_INVENTORY.pools);
      if (type === 'disk_health') return json(DEMO_INVENTORY.diskHealth);
      if (type === 'backup_tasks') return json(DEMO_INVENTORY.backupTasks);
      return 'No storage data available';
    },
  },
};

/** What the scripted model did, line by line (the demo prints it). */
export type DemoLog = (line: string) => void;

const finding = (r: Omit<FindingReport, 'description'> & { description?: string }): FindingReport => ({
  description: r.title,
  ...r,
});

/**
 * The scripted model. Main pass: reads every tool, files CPU, pool and backup
 * findings, gives a verdict on the seeded finding, and says nothing about the
 * failed disk it was shown. Evaluation pass: files one finding per signal it
 * is given. It never needs the assessment sweep.
 */
export function demoModel(log: DemoLog) {
  return async ({ request, tools, seeded }: PatrolPassInput): Promise<void> => {
    if (request.pass === 'main') {
      for (const [tool, input] of [
        ['pulse_metrics', { type: 'performance' }],
        ['pulse_storage', { type: 'pools' }],
        ['pulse_storage', { type: 'disk_health' }],
        ['pulse_storage', { type: 'backup_tasks' }],
      ] as const) {
        const r = await tools.call(tool, input);
        log(`model: ${tool} ${json(input)} → ${r.ok ? `${r.value.length} bytes` : r.error.code}`);
      }
      for (const report of [
        finding({
          key: 'cpu-high',
          severity: 'warning',
          category: 'performance',
          resourceId: 'pve2',
          resourceName: 'pve2',
          resourceType: 'node',
          title: 'Sustained high CPU on pve2',
          evidence: 'avg_cpu 92.4',
        }),
        finding({
          key: 'disk-high',
          severity: 'warning',
          category: 'capacity',
          resourceId: 'backup',
          resourceName: 'backup',
          resourceType: 'storage',
          title: 'Storage pool backup at 88.5% usage',
          evidence: 'usage_percent 88.5',
        }),
        finding({
          key: 'backup-failed',
          severity: 'warning',
          category: 'backup',
          resourceId: '101',
          resourceName: 'db',
          resourceType: 'vm',
          title: 'Backup of db failed',
          evidence: 'ERROR: backup failed',
        }),
      ]) {
        const r = await tools.reportFinding(report);
        log(
          `model: report "${report.title}" → ${r.ok ? (r.value.isNew ? 'new finding' : 'existing finding') : r.error.code}`,
        );
      }
      for (const f of seeded) {
        const r = await tools.assessFinding({
          findingId: f.id,
          verdict: 'resolved',
          evidence: 'usage_percent 62.0',
          reason: 'the pool is back under its warning level',
        });
        log(`model: assess "${f.title}" resolved → ${r.ok ? 'applied' : r.error.code}`);
      }
      log('model: "Two nodes, two pools: CPU on pve2, the backup pool and the db backup need attention."');
      return;
    }
    if (request.pass === 'evaluation') {
      log(
        `model (evaluation pass): shown ${request.signals!.length} unmatched signal(s), may file ${request.maxFindingReports}`,
      );
      for (const s of request.signals!) {
        const r = await tools.reportFinding(
          finding({
            key: s.type.replace(/_/g, '-'),
            severity: s.severity === 'critical' ? 'critical' : 'warning',
            category: s.category as FindingReport['category'],
            resourceId: s.resourceId,
            resourceName: s.resourceName,
            resourceType: s.resourceType,
            title: s.summary,
            evidence: s.evidence,
          }),
        );
        log(`model (evaluation pass): report "${s.summary}" → ${r.ok ? 'filed' : r.error.code}`);
      }
    }
  };
}

/** The demo run's result and the lines it printed. */
export interface PatrolDemoRun {
  result: PatrolRunResult;
  lines: string[];
  investigated: string[];
}

/**
 * Runs the demo: a full scheduled run over the fake inventory with stock alert
 * thresholds, the scripted model, autonomy `approval` and an investigation
 * stub that only notes what it was given.
 *
 * @example
 * const { result } = await runPatrolDemo();
 * result.record.unmatchedBeforeEvaluation.length; // 1
 */
export async function runPatrolDemo(onStep?: (step: PatrolStep) => void): Promise<PatrolDemoRun> {
  const lines: string[] = [];
  const investigated: string[] = [];
  const log: DemoLog = (line) => lines.push(line);
  const result = await runPatrol({
    runId: 'patrol-demo',
    trigger: 'scheduled',
    now: () => DEMO_NOW,
    store: demoStore(),
    autonomy: 'approval',
    thresholds: signalThresholdsFromPatrol(
      patrolThresholdsFromAlerts({ nodeCpu: 80, nodeMemory: 85, guestMemory: 85, guestDisk: 90, storage: 85 }),
    ),
    tools: demoTools,
    passes: { main: demoModel(log) },
    investigate: (f, session) => {
      investigated.push(`${f.title} (session profile: ${session.persist().context.config.profile ?? 'interactive'})`);
    },
    onStep: (step) => {
      log(`run: ${step.event.type} → ${step.after.state}`);
      onStep?.(step);
    },
  });
  await result.investigations;
  return { result, lines, investigated };
}
