import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSafetyMachine, safetyMachineDefinition } from 'assistant-safety';
import { EXPLORED_CONFIGS } from 'assistant-safety/testing';
import { monitorWalk, type WalkCommand } from '../../src/testing/monitorWalk.js';

/*
 * Long random command sequences against a real SafetySession, every invariant
 * checked on every step. Beyond the explored graph's bounds on purpose: up to
 * four calls in flight, clock gaps that expire pending recoveries.
 * Replay a failure with FC_SEED=<seed> FC_PATH=<path> from the printed report.
 */

const command: fc.Arbitrary<WalkCommand> = fc.record({
  pick: fc.nat({ max: 63 }),
  gap: fc.oneof(fc.constant(0), fc.nat({ max: 1000 }), fc.nat({ max: 700_000 })),
});
const walk = fc.record({
  config: fc.constantFrom(...EXPLORED_CONFIGS),
  commands: fc.array(command, { minLength: 1, maxLength: 300 }),
});

const replay = {
  ...(process.env.FC_SEED && { seed: Number(process.env.FC_SEED) }),
  ...(process.env.FC_PATH && { path: process.env.FC_PATH }),
};

function property(machine?: ReturnType<typeof createSafetyMachine>) {
  return fc.property(walk, ({ config, commands }) => {
    const result = monitorWalk(commands, { config, ...(machine && { machine }) });
    if (!result.ok) {
      const v = result.violation!;
      throw new Error(
        `${v.invariant.id} ${v.invariant.name} broken at step ${v.index + 1}: ${v.message}\n${result.story.join('\n')}`,
      );
    }
  });
}

/** fast-check's report (seed, path, shrunk counterexample) followed by the broken invariant and the walk as a story. */
function explain<T>(details: fc.RunDetails<T>): string {
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `${fc.defaultReportMessage(details)}\n${cause}`;
}

describe('random walks with the invariants as a monitor', () => {
  it('should keep every invariant over long random sequences of session calls', () => {
    const started = performance.now();
    const details = fc.check(property(), { numRuns: 300, ...replay });
    console.log(
      `random walks: ${details.numRuns} walks of up to 300 calls, seed ${details.seed}, ${Math.round(performance.now() - started)} ms`,
    );
    if (details.failed) console.log(explain(details));
    expect(details.failed).toBe(false);
  });

  it('should shrink a failure to a short walk and print a seed and path that replay it', () => {
    // A machine with the verify gate of canExecuteTool removed: a write checked in VERIFYING passes.
    const json = structuredClone(safetyMachineDefinition) as typeof safetyMachineDefinition;
    delete (json.states.VERIFYING.on.CHECK_TOOL[0] as { guard?: string }).guard;
    const broken = createSafetyMachine(json);
    const details = fc.check(property(broken), { numRuns: 300, seed: 42 });
    expect(details.failed).toBe(true);
    const report = explain(details);
    console.log(report);
    expect(report).toMatch(/seed: 42, path: "[\d:]+"/);
    expect(report).toMatch(/I\d+ .* broken at step \d+/);
    const shrunk = details.counterexample![0] as { commands: WalkCommand[] };
    expect(shrunk.commands.length).toBeLessThanOrEqual(3);
    // The printed seed and path replay the same shrunk counterexample.
    const again = fc.check(property(broken), { seed: details.seed, path: details.counterexamplePath!, numRuns: 1 });
    expect(again.counterexample).toEqual(details.counterexample);
  });
});
