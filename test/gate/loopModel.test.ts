import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScenario, scenarioArb, seedFrom, type RunStats } from './loopModel.js';

/*
 * Issue 16: the model-based test of the tool loop with faulty tools (see
 * loopModel.ts for what a run does and checks). Replay a run with
 * GATE_MODEL_SEED=<the printed seed> npx vitest run test/gate/loopModel.test.ts
 */
describe('the tool loop under faulty tools, hostile input and both APIs', () => {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown) => crashes.push(e);
  beforeEach(() => {
    process.on('unhandledRejection', onCrash);
    process.on('uncaughtException', onCrash);
  });
  afterEach(() => {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
  });

  it('should never start a write beside another, never allow an unverified final answer, never crash, and always settle', async () => {
    const seed = seedFrom(process.env.GATE_MODEL_SEED);
    const stats: RunStats = { steps: 0, batches: 0, toolCalls: 0, finalAnswersAllowed: 0 };
    const numRuns = 360;
    console.log(`gate model: seed ${seed} (replay with GATE_MODEL_SEED=${seed})`);
    await fc.assert(
      fc.asyncProperty(scenarioArb(60), async (scenario) => {
        await runScenario(scenario, stats);
        await new Promise((resolve) => setImmediate(resolve));
        if (crashes.length) throw new Error(`the process would have crashed: ${String(crashes[0])}`);
      }),
      { seed, numRuns },
    );
    console.log(
      `gate model: ${numRuns} runs, ${stats.steps} steps, ${stats.batches} batches, ${stats.toolCalls} tool calls, ${stats.finalAnswersAllowed} final answers allowed`,
    );
    expect(stats.steps).toBeGreaterThanOrEqual(10_000);
    expect(crashes).toEqual([]);
  }, 600_000);
});
