import type { Finding, FindingReport, ToolCallRecord } from 'assistant-safety/patrol';

/** The fixed clock of the Patrol tests. */
export const NOW = Date.parse('2026-08-22T12:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

let n = 0;
/** A successful tool call with JSON output. */
export function call(tool: string, input: unknown, output: unknown, success = true): ToolCallRecord {
  return {
    id: `call-${++n}`,
    tool,
    input,
    output: typeof output === 'string' ? output : JSON.stringify(output),
    success,
  };
}

/** A time `ms` before {@link NOW}, as RFC 3339. */
export const ago = (ms: number) => new Date(NOW - ms).toISOString();

/** A warning finding with no history. */
export function finding(over: Partial<Finding> = {}): Finding {
  return {
    id: 'f1',
    key: 'cpu-high',
    severity: 'warning',
    category: 'performance',
    resourceId: 'node1',
    resourceName: 'node1',
    resourceType: 'node',
    title: 'High CPU on node1',
    description: 'CPU above 90% for an hour',
    detectedAt: NOW - HOUR,
    lastSeenAt: NOW - HOUR,
    timesRaised: 1,
    investigationAttempts: 0,
    lifecycle: [],
    regressionCount: 0,
    ...over,
  };
}

/** A report of a warning on a resource. */
export function report(over: Partial<FindingReport> = {}): FindingReport {
  return {
    key: 'backup-failed',
    severity: 'warning',
    category: 'backup',
    resourceId: 'vm/100',
    resourceName: 'db',
    resourceType: 'vm',
    title: 'Nightly backup of db failed',
    description: 'The last backup task ended in error',
    evidence: 'ERROR: backup failed',
    ...over,
  };
}
