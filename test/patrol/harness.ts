import {
  EMPTY_FINDING_STORE,
  reduceFindings,
  runPatrol,
  type FindingReport,
  type FindingStore,
  type ModelPass,
  type RunPatrolOptions,
} from 'assistant-safety/patrol';
import { NOW, report } from './fixtures.js';

/** Inventory output with one pool over 75 % (a high_disk signal on `pool-a`) and one node over 70 % CPU (`node1`). */
export const INVENTORY = {
  pools: JSON.stringify({ pools: [{ id: 'pool-a', name: 'pool-a', usage_percent: 90 }] }),
  performance: JSON.stringify({ resources: [{ id: 'node1', name: 'node1', type: 'node', avg_cpu: 88 }] }),
};

export const tools: RunPatrolOptions['tools'] = {
  pulse_storage: { kind: 'read', run: () => INVENTORY.pools },
  pulse_metrics: { kind: 'read', run: () => INVENTORY.performance },
};

/** A report matching the `pool-a` signal. */
export const poolReport = report({
  key: 'disk-high',
  category: 'capacity',
  resourceId: 'pool-a',
  resourceName: 'pool-a',
  resourceType: 'storage',
  title: 'Pool pool-a nearly full',
});

/** A report matching the `node1` signal. */
export const cpuReport = report({
  key: 'cpu-high',
  category: 'performance',
  resourceId: 'node1',
  resourceName: 'node1',
  resourceType: 'node',
  title: 'CPU high on node1',
});

/** A main pass that reads both tools and files the given reports. */
export function mainPass(reports: FindingReport[] = []): ModelPass {
  return async ({ tools: t }) => {
    await t.call('pulse_storage', { type: 'pools' });
    await t.call('pulse_metrics', { type: 'performance' });
    for (const r of reports) await t.reportFinding(r);
  };
}

/** A store holding the given reports as findings from an hour ago. */
export function storeWith(...reports: FindingReport[]): FindingStore {
  let store = EMPTY_FINDING_STORE;
  for (const r of reports) store = reduceFindings(store, { type: 'add', report: r, now: NOW - 3_600_000 }).store;
  return store;
}

/** runPatrol with the fixed clock and the two-tool inventory. */
export function run(options: Partial<RunPatrolOptions> & { passes: RunPatrolOptions['passes'] }) {
  return runPatrol({ now: () => NOW, tools, runId: 'test', ...options });
}
