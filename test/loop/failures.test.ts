import { createMemoryRecorder, createSafetySession, createToolLoop, replayRecording } from 'assistant-safety';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

function setup(
  options: { toolTimeoutMs?: number; signal?: AbortSignal; failedWriteRequiresVerification?: boolean } = {},
) {
  const tools = createFakeTools();
  const recorder = createMemoryRecorder();
  const { failedWriteRequiresVerification, ...loopOptions } = options;
  const session = createSafetySession({
    recorder,
    ...(failedWriteRequiresVerification !== undefined && { failedWriteRequiresVerification }),
  });
  session.targetEstablished();
  const loop = createToolLoop({ session, execute: tools.execute, classify, ...loopOptions });
  return { tools, session, loop, recorder };
}

/** Consistent: nothing left in flight, not stuck in WRITING, and the recording replays the same. */
function expectConsistent(
  session: ReturnType<typeof createSafetySession>,
  recorder: ReturnType<typeof createMemoryRecorder>,
) {
  expect(session.context.calls).toEqual({});
  expect(session.state).not.toBe('WRITING');
  expect(replayRecording(recorder.entries).divergences).toEqual([]);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('failed calls', () => {
  it('should turn a throwing tool into a TOOL_ERROR outcome and keep going', async () => {
    const { tools, session, loop, recorder } = setup();
    const batch = loop.runBatch([
      { id: 'r1', name: 'get_logs', args: { vm: 'nope' } },
      { id: 'w', name: 'restart_vm', args: { vm: 'nope' } },
      { id: 'r2', name: 'get_status', args: { vm: 'web-01' } },
    ]);
    await flush();
    tools.reject('r1', Object.assign(new Error('no such VM: nope'), { code: 'resource_not_found' }));
    tools.reject('w', new Error('connection reset'));
    tools.resolve('r2', 'running');
    const outcomes = await batch;
    expect(outcomes).toEqual([
      {
        id: 'r1',
        name: 'get_logs',
        kind: 'read',
        status: 'error',
        error: {
          error: 'TOOL_ERROR',
          message: "Tool 'get_logs' failed: no such VM: nope",
          details: { tool: 'get_logs', cause: 'no such VM: nope', toolErrorCode: 'resource_not_found' },
        },
      },
      {
        id: 'w',
        name: 'restart_vm',
        kind: 'write',
        status: 'error',
        error: {
          error: 'TOOL_ERROR',
          message: "Tool 'restart_vm' failed: connection reset",
          details: { tool: 'restart_vm', cause: 'connection reset' },
        },
      },
      { id: 'r2', name: 'get_status', kind: 'read', status: 'ok', result: 'running' },
    ]);
    // The failed write changed nothing: writing may be tried again.
    expect(session.state).toBe('READING');
    expect(session.wroteThisEpisode).toBe(false);
    expectConsistent(session, recorder);
  });

  it('should treat a tool that throws synchronously like one that rejects', async () => {
    const session = createSafetySession();
    const loop = createToolLoop({
      session,
      classify,
      execute: () => {
        throw new TypeError('bad arguments');
      },
    });
    const [outcome] = await loop.runBatch([{ id: 'r', name: 'get_logs', args: {} }]);
    expect(outcome).toMatchObject({
      status: 'error',
      error: { error: 'TOOL_ERROR', details: { cause: 'bad arguments' } },
    });
    expect(session.context.calls).toEqual({});
  });

  it('should turn a call that outlives toolTimeoutMs into TOOL_TIMEOUT, abort its signal and ignore its late result', async () => {
    vi.useFakeTimers();
    const { tools, session, loop, recorder } = setup({ toolTimeoutMs: 5_000 });
    const batch = loop.runBatch([
      { id: 'w', name: 'restart_vm', args: { vm: 'web-01' } },
      { id: 'r', name: 'get_logs', args: { vm: 'web-01' } },
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(session.state).toBe('WRITING');
    tools.resolve('r', 'log lines');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(tools.signalOf('w').aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const outcomes = await batch;
    expect(outcomes[0]).toEqual({
      id: 'w',
      name: 'restart_vm',
      kind: 'write',
      status: 'error',
      error: {
        error: 'TOOL_TIMEOUT',
        message: "Tool 'restart_vm' did not finish within 5000 ms.",
        details: { tool: 'restart_vm', timeoutMs: '5000' },
      },
    });
    expect(outcomes[1]).toMatchObject({ status: 'ok', result: 'log lines' });
    expect(tools.signalOf('w').aborted).toBe(true);
    expect((tools.signalOf('w').reason as Error).name).toBe('TimeoutError');
    // A timed-out write may have landed: it must be verified, and nothing is left in flight.
    expect(session.state).toBe('VERIFYING');
    expectConsistent(session, recorder);
    // Its late result changes nothing.
    tools.resolve('w', 'done after all');
    await vi.advanceTimersByTimeAsync(0);
    expect(session.state).toBe('VERIFYING');
    expectConsistent(session, recorder);
  });

  it('should send a timed-out write to VERIFYING when the session treats failed writes as partial', async () => {
    vi.useFakeTimers();
    const { session, loop, recorder } = setup({ toolTimeoutMs: 100, failedWriteRequiresVerification: true });
    const batch = loop.runBatch([{ id: 'w', name: 'restart_vm', args: { vm: 'web-01' } }]);
    await vi.advanceTimersByTimeAsync(100);
    expect((await batch)[0]!.error?.error).toBe('TOOL_TIMEOUT');
    expect(session.state).toBe('VERIFYING');
    expect(loop.finalAnswer()).toMatchObject({ allowed: false });
    expectConsistent(session, recorder);
  });

  it('should turn calls in flight and calls not yet started into TOOL_ABORTED when the loop signal aborts', async () => {
    const controller = new AbortController();
    const { tools, session, loop, recorder } = setup({ signal: controller.signal });
    const batch = loop.runBatch([
      { id: 'r0', name: 'get_logs', args: { n: 0 } },
      { id: 'w', name: 'restart_vm', args: { vm: 'web-01' } },
      { id: 'r1', name: 'get_logs', args: { n: 1 } },
      { id: 'r2', name: 'get_logs', args: { n: 2 } },
      { id: 'r3', name: 'get_logs', args: { n: 3 } },
      { id: 'r4', name: 'get_logs', args: { n: 4 } },
    ]);
    await flush();
    tools.resolve('r0', 'done');
    await flush();
    expect(tools.running()).toEqual(['w', 'r1', 'r2', 'r3']);
    controller.abort(new Error('user pressed stop'));
    const outcomes = await batch;
    expect(outcomes.map((o) => [o.id, o.status, o.error?.error, o.error?.details?.started])).toEqual([
      ['r0', 'ok', undefined, undefined],
      ['w', 'error', 'TOOL_ABORTED', true],
      ['r1', 'error', 'TOOL_ABORTED', true],
      ['r2', 'error', 'TOOL_ABORTED', true],
      ['r3', 'error', 'TOOL_ABORTED', true],
      ['r4', 'error', 'TOOL_ABORTED', false],
    ]);
    expect(outcomes[1]!.error!.details!.reason).toBe('user pressed stop');
    expect(tools.started).not.toContain('r4'); // never started
    expect(tools.signalOf('w').aborted).toBe(true);
    // The aborted write was running: it may have acted, so it must be verified.
    expect(session.state).toBe('VERIFYING');
    expectConsistent(session, recorder);

    // A batch after the abort runs nothing and begins nothing.
    const before = recorder.entries.length;
    const after = await loop.runBatch([{ id: 'r5', name: 'get_logs', args: {} }]);
    expect(after[0]).toMatchObject({ status: 'error', error: { error: 'TOOL_ABORTED', details: { started: false } } });
    expect(recorder.entries.length).toBe(before);
  });

  it('should keep the loop usable after failures', async () => {
    const { tools, session, loop, recorder } = setup();
    const first = loop.runBatch([{ id: 'w1', name: 'restart_vm', args: { vm: 'web-01' } }]);
    await flush();
    tools.reject('w1', new Error('timeout talking to the hypervisor'));
    expect((await first)[0]!.status).toBe('error');
    const outcomes = await drive(tools, loop.runBatch([{ id: 'w2', name: 'restart_vm', args: { vm: 'web-01' } }]));
    expect(outcomes[0]!.status).toBe('ok');
    expect(session.state).toBe('VERIFYING');
    expectConsistent(session, recorder);
  });
});
