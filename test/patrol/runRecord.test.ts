import { describe, expect, it } from 'vitest';
import {
  PATROL_METRICS,
  patrolMetricPoints,
  recordedToolCall,
  runPatrol,
  runStatus,
  type PatrolRunRecord,
} from 'assistant-safety/patrol';

describe('run status and summary', () => {
  it.each([
    [{ critical: 0, warning: 0 }, 0, 'healthy', 'All healthy'],
    [{ critical: 1, warning: 2 }, 0, 'critical', '1 critical and 2 warning'],
    [{ critical: 2, warning: 0 }, 0, 'critical', '2 critical'],
    [{ critical: 0, warning: 3 }, 0, 'issues_found', '3 warning'],
    [{ critical: 0, warning: 0 }, 1, 'error', 'Analysis incomplete (1 errors)'],
    [{ critical: 0, warning: 1 }, 2, 'error', '1 warning'],
  ] as const)('%j with %i errors → %s, %j', (active, errors, status, summary) => {
    expect(runStatus(active, errors)).toEqual({ status, summary });
  });
});

describe('recorded tool calls', () => {
  it('should keep input as JSON text of at most 16384 characters and output of at most 2048', () => {
    const r = recordedToolCall({
      id: 'c',
      tool: 't',
      input: { q: 'x'.repeat(20_000) },
      output: 'y'.repeat(5000),
      success: true,
    });
    expect((r.input as string).length).toBe(16_384);
    expect(r.output.length).toBe(2048);
  });
});

describe('metrics', () => {
  it('should map every reference Patrol counter to an OpenTelemetry instrument', () => {
    const references = Object.values(PATROL_METRICS).map((m) => m.reference);
    for (const name of [
      'pulse_patrol_run_total',
      'pulse_patrol_finding_rejected_total',
      'pulse_patrol_circuit_block_total',
      'pulse_patrol_investigation_outcome_total',
      'pulse_patrol_fix_verification_total',
      'pulse_patrol_triage_flags',
      'pulse_patrol_triage_quiet_total',
      'pulse_patrol_scoped_dropped_total',
      'pulse_patrol_scoped_dropped_final_total',
    ])
      expect(references).toContain(name);
    for (const m of Object.values(PATROL_METRICS)) expect(m.name).toMatch(/^assistant_safety\.patrol\.[a-z_.]+$/);
    expect(PATROL_METRICS.runs.attributes).toEqual(['trigger', 'type']);
    expect(PATROL_METRICS.triageFlags.buckets).toEqual([0, 1, 2, 3, 5, 10, 20, 50]);
  });

  it('should turn a record into its measurements', () => {
    const signal = {
      type: 'guest_unreachable',
      resourceId: 'q',
      resourceName: 'q',
      resourceType: 'vm',
      severity: 'warning',
      category: 'connectivity',
      summary: '',
      evidence: '',
    } as const;
    const record = {
      trigger: 'scheduled',
      type: 'full',
      triageFlags: 0,
      unmatchedBeforeEvaluation: [signal, signal],
      unmatchedAfterEvaluation: [signal],
    } as unknown as PatrolRunRecord;
    expect(patrolMetricPoints(record)).toEqual([
      { metric: 'runs', value: 1, attributes: { trigger: 'scheduled', type: 'full' } },
      { metric: 'triageFlags', value: 0, attributes: {} },
      { metric: 'triageQuiet', value: 1, attributes: {} },
      { metric: 'unmatchedSignals', value: 2, attributes: { type: 'guest_unreachable', stage: 'before_evaluation' } },
      { metric: 'unmatchedSignals', value: 1, attributes: { type: 'guest_unreachable', stage: 'after_evaluation' } },
    ]);
  });
});

describe('a run whose clock goes backwards', () => {
  it('should record a completion no earlier than the start and a duration of at least 0', async () => {
    let clock = 10_000;
    const { record } = await runPatrol({ tools: {}, passes: { main: async () => {} }, now: () => (clock -= 100) });
    expect(record.startedAt).toBe(9_900);
    expect(record.completedAt).toBe(9_900);
    expect(record.durationMs).toBe(0);
  });
});
