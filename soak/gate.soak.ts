/*
 * The gate's model-based run at soak size: the same scenarios as
 * test/gate/loopModel.test.ts (faulty tools, hostile input, both APIs on one
 * session), many more of them and longer. Bounded: at most RUNS runs and
 * TIME_LIMIT_MS of wall time. Replay a failure with GATE_MODEL_SEED=<seed>.
 */
import fc from 'fast-check';
import { runScenario, scenarioArb, seedFrom, type RunStats } from '../test/gate/loopModel.js';

const RUNS = 3_000;
const MAX_STEPS = 120;
const TIME_LIMIT_MS = 120_000;

export async function run(): Promise<void> {
  const seed = seedFrom(process.env.GATE_MODEL_SEED);
  const crashes: unknown[] = [];
  const onCrash = (e: unknown) => crashes.push(e);
  process.on('unhandledRejection', onCrash);
  process.on('uncaughtException', onCrash);
  const stats: RunStats = { steps: 0, batches: 0, toolCalls: 0, finalAnswersAllowed: 0 };
  let runs = 0;
  const started = performance.now();
  console.log(`gate model soak: seed ${seed} (replay with GATE_MODEL_SEED=${seed})`);
  try {
    await fc.assert(
      fc.asyncProperty(scenarioArb(MAX_STEPS), async (scenario) => {
        runs++;
        await runScenario(scenario, stats);
        await new Promise((resolve) => setImmediate(resolve));
        if (crashes.length) throw new Error(`the process would have crashed: ${String(crashes[0])}`);
      }),
      { seed, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
  } finally {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
  }
  const s = (performance.now() - started) / 1000;
  console.log(
    `gate model soak: ${runs} runs, ${stats.steps} steps, ${stats.batches} batches, ${stats.toolCalls} tool calls, ` +
      `${stats.finalAnswersAllowed} final answers allowed, ${s.toFixed(1)} s (${Math.round(stats.steps / s)} steps/s)`,
  );
}
