import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSafetyMachine, safetyMachineDefinition } from 'assistant-safety';
import { EXPLORED_CONFIGS, generateMutants } from 'assistant-safety/testing';
import { sessionPair, timedCall } from './executors.js';

/*
 * The table is generated from whatever JSON it is given, so a broken machine compiles to the
 * same broken decisions XState makes from it: every mutant of the mutation run, compiled and
 * interpreted, agrees on a random walk through each explored setting.
 */

describe('mutant machines, compiled and interpreted', () => {
  it('should agree on every mutant of the mutation run', () => {
    const mutants = generateMutants(safetyMachineDefinition as never);
    expect(mutants.length).toBeGreaterThan(500);
    const walks = fc.sample(fc.array(timedCall, { minLength: 60, maxLength: 60 }), {
      numRuns: EXPLORED_CONFIGS.length,
      seed: 42,
    });
    let calls = 0;
    for (const mutant of mutants) {
      const machine = createSafetyMachine(mutant.json);
      EXPLORED_CONFIGS.forEach((config, i) => {
        const pair = sessionPair(config, machine);
        for (const { gap, call } of walks[i]!) {
          calls++;
          const difference = pair.step(gap, call);
          if (difference !== null) throw new Error(`${mutant.id}: ${difference}`);
        }
      });
    }
    console.log(`mutants compiled vs XState: ${mutants.length} mutants, ${calls} calls, all equal`);
  }, 120_000); // CPU-bound over every mutant: the bound only catches a hang on a busy machine
});
