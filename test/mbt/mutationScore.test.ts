import { describe, expect, it } from 'vitest';
import { invariants } from 'assistant-safety/testing';
import { parseMachineDefinition, safetyMachineDefinition } from 'assistant-safety';
import { EQUIVALENT_MUTANTS } from '../../src/testing/equivalentMutants.js';
import { generateMutants, runMutants, tryMutant } from '../../src/testing/mutate.js';

const def = parseMachineDefinition(safetyMachineDefinition);

describe('the mutation score of the shipped machine', () => {
  const report = runMutants(def);
  console.log(
    `mutants: ${report.results.length}, killed ${report.killed}, rejected ${report.rejected}, equivalent ${report.equivalent}, survived ${report.survived}: score ${report.score}% in ${Math.round(report.ms)} ms`,
  );

  it('should kill every mutant that is not listed as equivalent (100% score)', () => {
    expect(report.results.filter((r) => r.status === 'survived').map((r) => r.mutant.id)).toEqual([]);
    expect(report.score).toBe(100);
  });

  it('should list as equivalent only mutants that exist and survive, each with a reason', () => {
    const ids = new Set(report.results.map((r) => r.mutant.id));
    for (const [id, reason] of Object.entries(EQUIVALENT_MUTANTS)) {
      expect(ids, id).toContain(id);
      expect(reason.length).toBeGreaterThan(20);
    }
    expect(report.equivalent).toBe(Object.keys(EQUIVALENT_MUTANTS).length);
  });

  it('should make every kind of single-point mutant', () => {
    const operators = new Set(generateMutants(def).map((m) => m.operator));
    expect([...operators].sort()).toEqual(['drop-action', 'drop-guard', 'drop-transition', 'retarget', 'swap-guard']);
  });

  it('should owe each kill to an invariant: a mutant survives a check without the one that kills it', () => {
    // Dropping the write gate of RESOLVING's beginToolCall blocks reads too: I5 sees it, I13 cannot.
    const mutant = generateMutants(def).find((m) => m.id === 'drop-guard states.RESOLVING.on.BEGIN_CALL[0] (isWrite)')!;
    expect(tryMutant(mutant, { invariants: invariants.filter((i) => i.id === 'I5') }).status).toBe('killed');
    expect(tryMutant(mutant, { invariants: invariants.filter((i) => i.id === 'I13') }).status).toBe('survived');
    expect(tryMutant(mutant, { invariants: [] }).status).toBe('survived');
  });
});
