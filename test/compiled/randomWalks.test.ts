import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPLORED_CONFIGS } from 'assistant-safety/testing';
import { sessionPair, timedCall } from './executors.js';

/*
 * Long random walks of session calls, every call through a session on the compiled table and
 * one on XState: after every call the outcome (decision, reason, block details, recovery ids,
 * errors thrown), the state and the whole context must be equal. Beyond the explored graph on
 * purpose: any call at any time, ids that collide, clock gaps past the recovery TTL.
 * Replay a failure with FC_SEED=<seed> FC_PATH=<path> from the printed report.
 */

const replay = {
  ...(process.env.FC_SEED && { seed: Number(process.env.FC_SEED) }),
  ...(process.env.FC_PATH && { path: process.env.FC_PATH }),
};

describe('the compiled executor against XState on random walks', () => {
  it('should decide every one of at least 100,000 random calls exactly as XState does', () => {
    let events = 0;
    const walk = fc.record({
      config: fc.constantFrom(...EXPLORED_CONFIGS),
      calls: fc.array(timedCall, { minLength: 200, maxLength: 400 }),
    });
    const details = fc.check(
      fc.property(walk, ({ config, calls }) => {
        const pair = sessionPair(config);
        for (const { gap, call } of calls) {
          events++;
          const difference = pair.step(gap, call);
          if (difference !== null) throw new Error(difference);
        }
      }),
      { numRuns: 400, ...replay },
    );
    if (details.failed) console.log(fc.defaultReportMessage(details));
    expect(details.failed).toBe(false);
    expect(events).toBeGreaterThanOrEqual(100_000);
    console.log(`compiled vs XState: ${details.numRuns} walks, ${events} calls, seed ${details.seed}, all equal`);
  });
});
