import { createSafetySession, createToolLoop, type ClassifiedCall } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

const calls = [
  { id: 'a', name: 'find_vm', args: { name: 'web-01' } },
  { id: 'b', name: 'get_logs', args: { vm: 'web-01' } },
  { id: 'c', name: 'get_status', args: { vm: 'web-01' } },
  { id: 'd', name: 'get_logs', args: { vm: 'web-02' } },
];

describe('ordered batches', () => {
  it('should run the batch one call at a time, in the provider order, when mustRunInOrder says so', async () => {
    const tools = createFakeTools();
    const seen: ClassifiedCall[][] = [];
    const loop = createToolLoop({
      session: createSafetySession(),
      execute: tools.execute,
      classify,
      concurrency: 4,
      mustRunInOrder: (batch) => {
        seen.push([...batch]);
        return batch.some((c) => c.name === 'find_vm');
      },
    });
    const batch = loop.runBatch(calls);
    for (const id of ['a', 'b', 'c', 'd']) {
      await flush();
      expect(tools.running()).toEqual([id]);
      tools.resolve(id);
    }
    const outcomes = await batch;
    expect(tools.started).toEqual(['a', 'b', 'c', 'd']);
    expect(tools.maxInFlight).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    // It is asked with the classified calls.
    expect(seen[0]!.map((c) => [c.id, c.kind])).toEqual([
      ['a', 'resolve'],
      ['b', 'read'],
      ['c', 'read'],
      ['d', 'read'],
    ]);
  });

  it('should run the batch in parallel when mustRunInOrder says no', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({
      session: createSafetySession(),
      execute: tools.execute,
      classify,
      mustRunInOrder: () => false,
    });
    const batch = loop.runBatch(calls);
    await flush();
    expect(tools.running()).toEqual(['a', 'b', 'c', 'd']);
    await drive(tools, batch);
  });
});
