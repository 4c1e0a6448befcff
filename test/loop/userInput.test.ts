import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

describe('user_input runs alone', () => {
  it('should never overlap a question with any other call', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify, concurrency: 8 });
    const batch = loop.runBatch([
      { id: 'r1', name: 'get_logs', args: { vm: 1 } },
      { id: 'r2', name: 'get_status', args: { vm: 1 } },
      { id: 'q1', name: 'ask_user', args: { question: 'Which VM?' } },
      { id: 'r3', name: 'get_logs', args: { vm: 2 } },
      { id: 'q2', name: 'ask_user', args: { question: 'Restart it?' } },
      { id: 'r4', name: 'get_status', args: { vm: 2 } },
    ]);
    await flush();
    // The reads before the question run together; the question waits for them.
    expect(tools.running()).toEqual(['r1', 'r2']);
    tools.resolve('r2');
    await flush();
    expect(tools.running()).toEqual(['r1']);
    tools.resolve('r1');
    await flush();
    // Alone, and nothing after it has started.
    expect(tools.running()).toEqual(['q1']);
    const outcomes = await drive(tools, batch);
    expect(tools.overlaps.get('q1')).toEqual(['q1']);
    expect(tools.overlaps.get('q2')).toEqual(['q2']);
    // Nothing started while a question was running.
    for (const [id, inFlight] of tools.overlaps) {
      if (!id.startsWith('q')) expect(inFlight.filter((x) => x.startsWith('q'))).toEqual([]);
    }
    expect(tools.started).toEqual(['r1', 'r2', 'q1', 'r3', 'q2', 'r4']);
    expect(outcomes.map((o) => [o.id, o.kind, o.status])).toEqual([
      ['r1', 'read', 'ok'],
      ['r2', 'read', 'ok'],
      ['q1', 'user_input', 'ok'],
      ['r3', 'read', 'ok'],
      ['q2', 'user_input', 'ok'],
      ['r4', 'read', 'ok'],
    ]);
  });
});
