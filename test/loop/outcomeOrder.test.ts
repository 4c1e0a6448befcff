import { createMemoryRecorder, createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive } from './fakeTools.js';

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]));
}

const batch = [
  { id: 'w', name: 'restart_vm', args: { vm: 'web-01' } },
  { id: 'r1', name: 'get_logs', args: { vm: 'web-01' } },
  { id: 'q', name: 'get_status', args: { vm: 'web-01' } },
  { id: 'r2', name: 'find_vm', args: { name: 'web-02' } },
];

describe('outcome order', () => {
  it('should return outcomes and end calls in the provider order, whatever the completion order', async () => {
    const endStates = new Set<string>();
    for (const order of permutations(batch.map((c) => c.id))) {
      const tools = createFakeTools();
      const recorder = createMemoryRecorder();
      const session = createSafetySession({ recorder, now: () => 0, id: 's' });
      session.targetEstablished();
      const loop = createToolLoop({ session, execute: tools.execute, classify });
      const outcomes = await drive(tools, loop.runBatch(batch), (running) => order.find((id) => running.includes(id))!);
      expect(tools.finished).toEqual(order);
      expect(outcomes.map((o) => o.id)).toEqual(['w', 'r1', 'q', 'r2']);
      expect(outcomes.map((o) => o.result)).toEqual(batch.map((c) => ({ ok: true, id: c.id })));
      const ends = recorder.entries
        .filter((e) => e.call.type === 'endToolCall')
        .map((e) => (e.call as { id: string }).id);
      expect(ends).toEqual(['w', 'r1', 'q', 'r2']);
      // The session's whole history is the same whatever finished first.
      endStates.add(JSON.stringify(recorder.entries.map((e) => [e.call, e.decision, e.after, e.context])));
    }
    expect(endStates.size).toBe(1);
  });
});
