import { createMemoryRecorder, createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive } from './fakeTools.js';

const question = (id: string) => ({ id, name: 'ask_user', args: { question: 'Which VM do you mean?' } });

function setup(options: { maxLookBeforeAskBlocks?: number } = {}) {
  const tools = createFakeTools();
  const recorder = createMemoryRecorder();
  const session = createSafetySession({ recorder });
  const loop = createToolLoop({ session, execute: tools.execute, classify, ...options });
  return { tools, loop, recorder };
}

describe('look before asking', () => {
  it('should block a question asked before any tool is tried, at most twice per turn, then let it through', async () => {
    const { tools, loop, recorder } = setup();
    loop.startTurn();
    const first = await drive(tools, loop.runBatch([question('q1')]));
    const second = await drive(tools, loop.runBatch([question('q2')]));
    expect([first[0], second[0]]).toMatchObject([
      {
        status: 'blocked',
        kind: 'user_input',
        error: { error: 'LOOK_BEFORE_ASKING', details: { blocksThisTurn: '1' } },
      },
      {
        status: 'blocked',
        kind: 'user_input',
        error: { error: 'LOOK_BEFORE_ASKING', details: { blocksThisTurn: '2' } },
      },
    ]);
    expect(tools.started).toEqual([]);
    // Blocked by the loop, so the session never saw them.
    expect(recorder.entries.filter((e) => e.call.type === 'beginToolCall')).toEqual([]);
    const third = await drive(tools, loop.runBatch([question('q3')]));
    expect(third[0]).toMatchObject({ status: 'ok' });
    expect(tools.started).toEqual(['q3']);
  });

  it('should start counting again on a new turn', async () => {
    const { tools, loop } = setup({ maxLookBeforeAskBlocks: 1 });
    loop.startTurn();
    expect((await drive(tools, loop.runBatch([question('q1')])))[0]!.status).toBe('blocked');
    expect((await drive(tools, loop.runBatch([question('q2')])))[0]!.status).toBe('ok');
    loop.startTurn();
    expect((await drive(tools, loop.runBatch([question('q3')])))[0]!.error?.error).toBe('LOOK_BEFORE_ASKING');
  });

  it('should let a question through once any real tool was attempted in the turn, even a blocked one', async () => {
    const { tools, loop } = setup();
    loop.startTurn();
    // A write in RESOLVING is blocked by the session, but it was an attempt: the gate is satisfied.
    const outcomes = await drive(
      tools,
      loop.runBatch([{ id: 'w', name: 'restart_vm', args: { vm: 'web-01' } }, question('q1')]),
    );
    expect(outcomes.map((o) => [o.id, o.status, o.error?.error])).toEqual([
      ['w', 'blocked', 'FSM_BLOCKED'],
      ['q1', 'ok', undefined],
    ]);
  });

  it('should judge a batch in the provider order: a question listed before the look is still blocked', async () => {
    const { tools, loop } = setup();
    const outcomes = await drive(
      tools,
      loop.runBatch([question('q1'), { id: 'r', name: 'get_logs', args: {} }, question('q2')]),
    );
    expect(outcomes.map((o) => [o.id, o.status, o.error?.error])).toEqual([
      ['q1', 'blocked', 'LOOK_BEFORE_ASKING'],
      ['r', 'ok', undefined],
      ['q2', 'ok', undefined],
    ]);
  });

  it('should never block a question when maxLookBeforeAskBlocks is 0', async () => {
    const { tools, loop } = setup({ maxLookBeforeAskBlocks: 0 });
    expect((await drive(tools, loop.runBatch([question('q1')])))[0]!.status).toBe('ok');
  });

  it('should not name a tool in its message', async () => {
    const { tools, loop } = setup();
    const [outcome] = await drive(tools, loop.runBatch([question('q1')]));
    for (const name of ['find_vm', 'get_logs', 'get_status', 'restart_vm', 'stop_vm']) {
      expect(outcome!.error!.message).not.toContain(name);
    }
  });
});
