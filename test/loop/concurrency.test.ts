import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
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
