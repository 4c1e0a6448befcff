import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runWorkerRequest } from '../../viz/editor/model/runWorkerRequest.js';

type Json = { states: Record<string, { on?: Record<string, Array<{ target?: string }>> }> };
const shipped = () => JSON.parse(readFileSync('machines/patrol.json', 'utf8')) as Json;

function check(definition: unknown) {
  const answer = runWorkerRequest({ type: 'check', definition, kind: 'patrol' });
  if (answer.type !== 'check') throw new Error(`unexpected answer ${answer.type}`);
  return answer.check;
}

describe("the editor's check of a Patrol machine", () => {
  it('should find every Patrol invariant holding on the shipped machine', () => {
    const result = check(shipped());
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.report.violations).toEqual([]);
    expect(result.report.configurations).toBeGreaterThan(10);
  });

  it('should name P1 when an edit lets the run dispatch before its record is written', () => {
    const edited = shipped();
    edited.states['reconciling']!.on!['RECONCILED']![0]!.target = 'dispatching';
    const result = check(edited);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.report.violations.map((v) => v.id)).toContain('P1');
    const p1 = result.report.violations.find((v) => v.id === 'P1')!;
    expect(p1.sentence).toBe('A run never dispatches an investigation before its record is written.');
    expect(p1.message).toMatch(/DISPATCH in dispatching dispatched an investigation with no record written/);
    // Its shortest counterexample: a run reconciled, then sent to dispatch with no record.
    const steps = p1.steps.map((step) => step.text);
    expect(steps.slice(-2)).toEqual(['reconciling · RECONCILED → dispatching', 'dispatching · DISPATCH → dispatching']);
    expect(p1.steps.at(-2)).toMatchObject({ transition: 'reconciling.RECONCILED[0]' });
    expect(p1.steps[0]).toMatchObject({ from: 'idle', to: 'gating' });
  });

  it('should name P3 when a scoped run is let into the stale reconcile', () => {
    const edited = shipped();
    edited.states['checkingAssessments']!.on!['ASSESSMENTS_CHECKED']![2]!.target = 'reconciling';
    const result = check(edited);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    // The stale reconcile of a scoped run (P3), reached by skipping the assessment sweep (P5: phases in order).
    expect(result.report.violations.map((v) => v.id)).toEqual(['P3', 'P5']);
  });

  it("should list the Patrol kind's validation issues for a guard it does not know, and the safety check should refuse the Patrol machine", () => {
    const edited = shipped() as Json & { guards: Record<string, unknown> };
    edited.guards['isWrite'] = { description: 'a safety guard' };
    const result = check(edited);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]).toMatchObject({ path: ['guards', 'isWrite'] });
    const asSafety = runWorkerRequest({ type: 'check', definition: shipped() });
    expect(asSafety.type === 'check' && asSafety.check.ok).toBe(false);
  });
});
