import { createSafetySession, createToolLoop } from 'assistant-safety';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

const reads = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, name: 'get_logs', args: { n: i } }));

describe('concurrency cap', () => {
  it('should never run more than `concurrency` calls at once, with 20 slow reads', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify, concurrency: 4 });
    const batch = loop.runBatch(reads(20));
    const seen: number[] = [];
    // Finish the calls in a scrambled order (not the start order), checking the count at every step.
    let step = 0;
    const outcomes = await drive(tools, batch, (running) => {
      seen.push(running.length);
      step += 1;
      return running[(step * 7) % running.length]!;
    });
    expect(outcomes.map((o) => o.status)).toEqual(Array(20).fill('ok'));
    expect(tools.started).toHaveLength(20);
    expect(Math.max(...seen)).toBe(4);
    expect(tools.maxInFlight).toBe(4); // the cap is reached (the calls do run in parallel) and never exceeded
  });

  it('should default to 4 at once', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify });
    const batch = loop.runBatch(reads(10));
    await flush();
    expect(tools.running()).toHaveLength(4);
    await drive(tools, batch);
    expect(tools.maxInFlight).toBe(4);
  });

  it('should start the next call as soon as a slot frees, in the provider order', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify, concurrency: 2 });
    const batch = loop.runBatch(reads(5));
    await flush();
    expect(tools.started).toEqual(['r0', 'r1']);
    tools.resolve('r1');
    await flush();
    expect(tools.started).toEqual(['r0', 'r1', 'r2']);
    expect(tools.running()).toEqual(['r0', 'r2']);
    await drive(tools, batch);
    expect(tools.started).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
  });
});

describe('concurrency cap, any batch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('should hold the cap and keep questions alone whatever the mix of calls, durations and timeouts', async () => {
    const step = fc.record({
      name: fc.constantFrom('get_logs', 'find_vm', 'ask_user', 'restart_vm'),
      ms: fc.integer({ min: 0, max: 120 }), // past toolTimeoutMs (100): a timeout
      n: fc.nat(1000),
    });
    vi.useFakeTimers();
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 16 }),
        fc.integer({ min: 1, max: 5 }),
        async (steps, concurrency) => {
          const running = new Set<string>();
          const questions = new Set<string>();
          let max = 0;
          const violations: string[] = [];
          const session = createSafetySession();
          session.targetEstablished();
          const loop = createToolLoop({
            session,
            classify,
            concurrency,
            toolTimeoutMs: 100,
            maxIdenticalCalls: Infinity,
            maxLookBeforeAskBlocks: 0,
            execute: (call, signal) =>
              new Promise((resolve, reject) => {
                const isQuestion = call.name === 'ask_user';
                if (questions.size > 0) violations.push(`${call.id} started during a question`);
                if (isQuestion && running.size > 0) violations.push(`question ${call.id} started beside others`);
                running.add(call.id);
                if (isQuestion) questions.add(call.id);
                max = Math.max(max, running.size);
                // The tool ends (synchronously, before the loop can start another) on its own time or when aborted.
                const end = () => {
                  running.delete(call.id);
                  questions.delete(call.id);
                };
                const timer = setTimeout(
                  () => {
                    end();
                    resolve('done');
                  },
                  (call.args as { ms: number }).ms,
                );
                signal.addEventListener('abort', () => {
                  clearTimeout(timer);
                  end();
                  reject(signal.reason);
                });
              }),
          });
          const batch = loop.runBatch(steps.map((s, i) => ({ id: `c${i}`, name: s.name, args: { ms: s.ms, n: s.n } })));
          await vi.runAllTimersAsync();
          const outcomes = await batch;
          expect(violations).toEqual([]);
          expect(max).toBeLessThanOrEqual(concurrency);
          expect(outcomes.map((o) => o.id)).toEqual(steps.map((_, i) => `c${i}`));
          expect(session.context.calls).toEqual({});
        },
      ),
      { numRuns: 200 },
    );
  });
});
