import { describe, expect, it } from 'vitest';
import { parseMachineDefinition } from 'assistant-safety';
import {
  createPatrolMachine,
  PATROL_INVARIANTS,
  PATROL_PROTOCOL_INVARIANTS,
  patrolKindTesting,
  patrolMachine,
  patrolMachineDefinition,
} from 'assistant-safety/patrol';
import { checkKindInvariants, exploreKind, generateMutants, runMutants } from 'assistant-safety/testing';

/*
 * The Patrol machine through the generic walkers: its invariants (the four
 * rules of a run and its protocol) hold over the graph the generic explorer
 * builds, and every single-point mutant of machines/patrol.json is killed.
 */

const def = parseMachineDefinition(patrolMachineDefinition, patrolKindTesting.kind);

describe('the Patrol kind through the generic checker and mutants', () => {
  it('should hold P1 to P6 on every edge and over the whole graph', () => {
    const graph = exploreKind(patrolMachine, patrolKindTesting.exploration());
    const result = checkKindInvariants(graph, patrolKindTesting);
    expect(result.violations.map((v) => `${v.invariant.id}: ${v.message}`)).toEqual([]);
    expect(result.invariants).toBe(6);
    expect(patrolKindTesting.invariants.map((i) => i.id)).toEqual(
      [...PATROL_INVARIANTS, ...PATROL_PROTOCOL_INVARIANTS].map((i) => i.id),
    );
  });

  it('should report a protocol step a mutant breaks, with a shortest path to it', () => {
    const mutant = generateMutants(def).find((m) => m.id === 'retarget gating.GATES_PASSED[0] triage→mainPass')!;
    const graph = exploreKind(createPatrolMachine(mutant.json), patrolKindTesting.exploration());
    const [violation] = checkKindInvariants(graph, patrolKindTesting).violations;
    expect(violation?.invariant.id).toBe('P5');
    expect(violation?.message).toBe('GATES_PASSED in gating went to mainPass, not triage');
    expect(violation?.path.map((e) => e.event.type)).toEqual(['START', 'GATES_PASSED']);
  });

  it('should kill every single-point mutant of machines/patrol.json', () => {
    const report = runMutants(def, { testing: patrolKindTesting });
    const survivors = report.results.filter((r) => r.status === 'survived').map((r) => r.mutant.id);
    expect(survivors).toEqual([]);
    expect(report.results.length).toBeGreaterThan(300);
    expect(report.score).toBe(100);
    const operators = new Set(report.results.map((r) => r.mutant.operator));
    expect([...operators].sort()).toEqual(['drop-action', 'drop-guard', 'drop-transition', 'retarget', 'swap-guard']);
    console.log(
      `Patrol mutants: ${report.results.length}, killed ${report.killed}, rejected ${report.rejected}, in ${Math.round(report.ms)} ms`,
    );
  });
});
