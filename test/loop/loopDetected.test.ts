import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive } from './fakeTools.js';

describe('loop detection', () => {
  it('should block an identical call repeated more than maxIdenticalCalls times in a turn with LOOP_DETECTED', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({
      session: createSafetySession(),
      execute: tools.execute,
      classify,
      maxIdenticalCalls: 2,
    });
    const call = (id: string, args: unknown) => ({ id, name: 'get_logs', args });
    const outcomes = await drive(
      tools,
      loop.runBatch([
        call('a', { vm: 'web-01', lines: 50 }),
        call('b', { lines: 50, vm: 'web-01' }), // same arguments, other key order
        call('c', { vm: 'web-01', lines: 50 }),
        call('d', { vm: 'web-02', lines: 50 }), // other arguments: not a repeat
      ]),
    );
    expect(outcomes.map((o) => [o.id, o.status, o.error?.error])).toEqual([
      ['a', 'ok', undefined],
      ['b', 'ok', undefined],
      ['c', 'blocked', 'LOOP_DETECTED'],
      ['d', 'ok', undefined],
    ]);
    expect(outcomes[2]!.error).toEqual({
      error: 'LOOP_DETECTED',
      message:
        "LOOP_DETECTED: 'get_logs' was attempted with these exact arguments 3 times in this turn (limit 2). The call did not run.",
      details: { tool: 'get_logs', attempts: '3', limit: '2' },
    });
    expect(tools.started).toEqual(['a', 'b', 'd']);

    // Counts are per turn and carry across the batches of a turn.
    expect((await drive(tools, loop.runBatch([call('e', { vm: 'web-02', lines: 50 })])))[0]!.status).toBe('ok');
    expect((await drive(tools, loop.runBatch([call('f', { vm: 'web-02', lines: 50 })])))[0]!.status).toBe('blocked');
    loop.startTurn();
    expect((await drive(tools, loop.runBatch([call('g', { vm: 'web-01', lines: 50 })])))[0]!.status).toBe('ok');
  });

  it('should stop a retry storm against the gate without ever waiving verification', async () => {
    const tools = createFakeTools();
    const session = createSafetySession();
    session.targetEstablished();
    const loop = createToolLoop({ session, execute: tools.execute, classify }); // default limit 3
    await drive(tools, loop.runBatch([{ id: 'w0', name: 'restart_vm', args: { vm: 'web-01' } }]));
    const codes: string[] = [];
    for (let i = 1; i <= 6; i += 1) {
      const [o] = await drive(tools, loop.runBatch([{ id: `w${i}`, name: 'stop_vm', args: { vm: 'web-02' } }]));
      codes.push(`${o!.error!.error}:${o!.error!.details?.reasonCode ?? ''}`);
    }
    expect(codes).toEqual([
      'FSM_BLOCKED:UNVERIFIED_WRITE',
      'FSM_BLOCKED:UNVERIFIED_WRITE',
      'FSM_BLOCKED:UNVERIFIED_WRITE',
      'LOOP_DETECTED:',
      'LOOP_DETECTED:',
      'LOOP_DETECTED:',
    ]);
    expect(tools.started).toEqual(['w0']);
    expect(session.state).toBe('VERIFYING');
    expect(session.consecutiveVerifyBlocks).toBe(3);
  });

  it('should count arguments that are not JSON (cycles, bigints) without throwing', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({
      session: createSafetySession(),
      execute: tools.execute,
      classify,
      maxIdenticalCalls: 1,
    });
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    const outcomes = await drive(
      tools,
      loop.runBatch([
        { id: 'a', name: 'get_logs', args: cyclic },
        { id: 'b', name: 'get_logs', args: cyclic },
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'blocked']);
  });
});
