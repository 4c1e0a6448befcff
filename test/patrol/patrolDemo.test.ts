import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPatrolDemo } from '../../examples/patrolDemo.js';

describe('the Patrol demo', () => {
  it('should have the evaluation pass file the failing disk the scripted model missed', async () => {
    const { result, investigated } = await runPatrolDemo();
    const { record, store } = result;
    expect(record.signals.map((s) => `${s.type}:${s.resourceId}`)).toEqual([
      'high_cpu:pve2',
      'high_disk:backup',
      'smart_failure:pve1',
      'backup_failed:101',
    ]);
    expect(record.unmatchedBeforeEvaluation.map((s) => s.type)).toEqual(['smart_failure']);
    expect(record.unmatchedAfterEvaluation).toEqual([]);
    expect(record.evaluationReports).toBe(1);
    expect(Object.values(store.findings).find((f) => f.resourceId === 'pve1')).toMatchObject({
      severity: 'critical',
      category: 'reliability',
      key: 'smart-failure',
    });
    expect(record).toMatchObject({
      status: 'critical',
      findingsSummary: '1 critical and 3 warning',
      resolvedFindings: 1,
    });
    expect(record.phases).toEqual([
      'idle',
      'gating',
      'triage',
      'mainPass',
      'detecting',
      'evaluationPass',
      'checkingAssessments',
      'reconciling',
      'recording',
    ]);
    expect(investigated).toHaveLength(4);
    expect(investigated.every((line) => line.endsWith('(session profile: investigation)'))).toBe(true);
  });

  it('should print the run and write the record with --out, exiting 0', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'patrol-demo-')), 'run.json');
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'examples/patrol-demo.ts', '--out', out], {
      encoding: 'utf8',
    });
    expect(stdout).toContain('model (evaluation pass): shown 1 unmatched signal(s), may file 1');
    expect(stdout).toContain('unmatched after the evaluation pass: none');
    const saved = JSON.parse(readFileSync(out, 'utf8')) as { record: { id: string }; steps: unknown[] };
    expect(saved.record.id).toBe('patrol-demo');
    expect(saved.steps.length).toBeGreaterThan(10);
  });
});
