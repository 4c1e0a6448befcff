import { describe, expect, it } from 'vitest';
import {
  assessmentSweepRequest,
  detectionToolsForResourceTypes,
  evaluationPassRequest,
  mainPassRequest,
  missingAssessments,
  patrolMaxTurns,
  RUNTIME_FINDING_ID,
  sweepEvidence,
  sweepMaxTurns,
  triageMaxTurns,
  type Signal,
} from 'assistant-safety/patrol';
import { finding } from './fixtures.js';

const signal = (resourceId: string): Signal => ({
  type: 'high_cpu',
  resourceId,
  resourceName: resourceId,
  resourceType: 'node',
  severity: 'warning',
  category: 'performance',
  summary: '',
  evidence: '',
});

describe('turn budgets', () => {
  it('should give the main pass 5 + 3 per triage flag, within 8..40, and 4 on a quick run', () => {
    expect([0, 1, 3, 10, 15].map((n) => triageMaxTurns(n))).toEqual([8, 8, 14, 35, 40]);
    expect([0, 3, 15].map((n) => triageMaxTurns(n, 'quick'))).toEqual([4, 4, 4]);
  });

  it('should size by inventory: 20 + 5 per 50 resources up to 80, quick 10 up to 30', () => {
    expect([0, 100, 1000].map((n) => patrolMaxTurns(n))).toEqual([20, 30, 80]);
    expect([0, 200, 1000].map((n) => patrolMaxTurns(n, 'quick'))).toEqual([10, 30, 30]);
  });

  it('should give the sweep one turn per finding plus 2, at most 12', () => {
    expect([1, 10, 20].map(sweepMaxTurns)).toEqual([3, 12, 12]);
  });
});

describe('the passes requests', () => {
  it('should run the main pass as patrol-main under detection with every tool on a full run', () => {
    expect(mainPassRequest({ flagCount: 3 })).toEqual({
      pass: 'main',
      sessionId: 'patrol-main',
      profile: 'detection',
      allowedTools: null,
      maxTurns: 14,
    });
  });

  it('should project a scoped run onto the evidence tools of its resource types, without pulse_read', () => {
    const tools = detectionToolsForResourceTypes(['vm', 'storage', 'discovery']);
    expect(tools).toEqual([
      'pulse_query',
      'pulse_metrics',
      'pulse_storage',
      'pulse_discovery',
      'patrol_get_findings',
      'patrol_report_finding',
      'patrol_assess_finding',
    ]);
    expect(tools).not.toContain('pulse_read');
    expect(tools).not.toContain('patrol_resolve_finding');
    expect(detectionToolsForResourceTypes(['vm', 'quantum-thing'])).toBeNull();
    expect(mainPassRequest({ flagCount: 0, scopeResourceTypes: ['docker'] }).allowedTools).toEqual([
      'pulse_query',
      'pulse_docker',
      'patrol_get_findings',
      'patrol_report_finding',
      'patrol_assess_finding',
    ]);
  });

  it('should run the evaluation pass as patrol-eval with 5 turns and one report per unmatched signal', () => {
    const request = evaluationPassRequest([signal('a'), signal('b')], true);
    expect(request).toMatchObject({
      pass: 'evaluation',
      sessionId: 'patrol-eval',
      profile: 'detection',
      allowedTools: ['patrol_report_finding'],
      maxTurns: 5,
      maxFindingReports: 2,
    });
    expect(request.signals!.map((s) => s.resourceId)).toEqual(['a', 'b']);
  });

  it('should add the findings read tool to the evaluation pass when it has no complete snapshot', () => {
    const request = evaluationPassRequest([signal('a')], false);
    expect(request.allowedTools).toEqual(['patrol_get_findings', 'patrol_report_finding']);
    expect(request.maxFindingReports).toBe(1);
  });

  it('should run the sweep as patrol-assess with only the assess tool', () => {
    expect(assessmentSweepRequest([finding()])).toMatchObject({
      pass: 'assessment',
      sessionId: 'patrol-assess',
      profile: 'detection',
      allowedTools: ['patrol_assess_finding'],
      maxTurns: 3,
    });
  });

  it('should show at most 500 characters of evidence in the sweep, then an ellipsis', () => {
    expect(sweepEvidence('x'.repeat(600))).toBe(`${'x'.repeat(500)}…`);
    expect(sweepEvidence('short')).toBe('short');
  });
});

describe('missing assessments', () => {
  it('should be seeded and queried findings without a verdict, a resolution or a creation, sorted, each once', () => {
    expect(
      missingAssessments({
        seeded: ['seeded', 'resolved-direct', 'duplicate', 'reported-existing'],
        queried: ['queried', 'duplicate', 'new-this-run', 'reported-existing'],
        created: ['new-this-run'],
        assessed: ['seeded'],
        resolved: ['resolved-direct'],
      }),
    ).toEqual(['duplicate', 'queried', 'reported-existing']);
  });

  it('should never count the runtime finding', () => {
    expect(
      missingAssessments({ seeded: [RUNTIME_FINDING_ID], queried: [], created: [], assessed: [], resolved: [] }),
    ).toEqual([]);
    expect(RUNTIME_FINDING_ID).toBe('9cf4e402ad25507d');
  });
});
