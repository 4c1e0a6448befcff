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
    const mutant = generateMutants(def).find((m) => m.id === 'drop-guard RESOLVING.BEGIN_CALL[6] (isWrite)')!;
    expect(tryMutant(mutant, { invariants: invariants.filter((i) => i.id === 'I5') }).status).toBe('killed');
    expect(tryMutant(mutant, { invariants: invariants.filter((i) => i.id === 'I13') }).status).toBe('survived');
    expect(tryMutant(mutant, { invariants: [] }).status).toBe('survived');
  });

  it.each([
    // The cover check dropped: any read begun after a targeted write verifies it.
    ['swap-guard VERIFYING.TOOL_SUCCEEDED[0] isCoveringRead→isVerifyingRead', 'I20'],
    // Partial cover no longer remembered: a read of t2 after a read of t1 does not verify a write to both.
    ['drop-action VERIFYING.TOOL_SUCCEEDED[1] coverTargets', 'I20'],
    // The validation check dropped: a write to a target nothing validated starts.
    ['drop-transition READING.BEGIN_CALL[1]', 'I18'],
    ['drop-transition READING.CHECK_TOOL[0]', 'I18'],
    // An untrusted tool's output establishes the target.
    ['swap-guard RESOLVING.TOOL_SUCCEEDED[0] establishesTarget→isDiscovery', 'I9'],
    // Human evidence: an attested verification no longer completes it; an attested target no longer counts.
    ['drop-transition VERIFYING.ATTEST[0]', 'I21'],
    ['drop-action *.ATTEST[0] validateTargets', 'I19'],
    // State-only writes and profiles.
    ['drop-transition *.TOOL_SUCCEEDED[0]', 'I22'],
    ['drop-transition READING.BEGIN_CALL[0]', 'I23'],
    ['drop-transition RESOLVING.BEGIN_CALL[2]', 'I23'],
    // Provenance: an egress read to anywhere runs; any write in VERIFYING passes as if approved.
    ['drop-transition *.BEGIN_CALL[0]', 'I26'],
    ['swap-guard VERIFYING.BEGIN_CALL[1] isApprovedUnverifiedWrite→isWrite', 'I27'],
    // Shadow mode: a call the gate would block no longer runs ungated.
    ['drop-action *.RUN_UNGATED[0] runUngated', 'I24'],
  ])('should kill %s with %s alone, and not without invariants', (id, invariant) => {
    const mutant = generateMutants(def).find((m) => m.id === id);
    expect(mutant, id).toBeDefined();
    const result = tryMutant(mutant!, { invariants: invariants.filter((i) => i.id === invariant) });
    expect(result.status, result.detail).toBe('killed');
    console.log(`${id}: ${result.detail}`);
    expect(tryMutant(mutant!, { invariants: [] }).status).toBe('survived');
  });
});
