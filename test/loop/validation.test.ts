import {
  classifyToolCall,
  createMemoryRecorder,
  createSafetySession,
  createToolLoop,
  ToolLoopError,
} from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

function thrown(fn: () => unknown): ToolLoopError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ToolLoopError) return e;
    throw e;
  }
  throw new Error('expected a ToolLoopError');
}

async function rejected(p: Promise<unknown>): Promise<ToolLoopError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ToolLoopError) return e;
    throw e;
  }
  throw new Error('expected a ToolLoopError');
}

describe('bad input', () => {
  it('should refuse options it cannot use with INVALID_OPTIONS, naming each bad option', () => {
    const session = createSafetySession();
    const execute = async () => 'ok';
    const cases: [unknown, string][] = [
      [{ execute }, 'options.session: expected a SafetySession'],
      [{ session: {}, execute }, 'options.session: expected a SafetySession'],
      [{ session }, 'options.execute: expected a function'],
      [{ session, execute, concurrency: 0 }, 'options.concurrency'],
      [{ session, execute, concurrency: 2.5 }, 'options.concurrency'],
      [{ session, execute, maxLookBeforeAskBlocks: -1 }, 'options.maxLookBeforeAskBlocks'],
      [{ session, execute, maxIdenticalCalls: 0 }, 'options.maxIdenticalCalls'],
      [{ session, execute, toolTimeoutMs: 0 }, 'options.toolTimeoutMs'],
      [{ session, execute, signal: {} }, 'options.signal: expected an AbortSignal'],
      [{ session, execute, classify: 'pulse' }, 'options.classify: expected a classifier'],
      [{ session, execute, concurency: 2 }, 'concurency'],
    ];
    for (const [options, message] of cases) {
      const error = thrown(() => createToolLoop(options as never));
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.message).toContain(message);
      expect(error.issues.length).toBeGreaterThan(0);
    }
    expect(thrown(() => createToolLoop(undefined as never)).code).toBe('INVALID_OPTIONS');
  });

  it('should refuse a malformed batch with INVALID_TOOL_CALL, naming the call and field, before anything begins', async () => {
    const tools = createFakeTools();
    const recorder = createMemoryRecorder();
    const session = createSafetySession({ recorder });
    const loop = createToolLoop({ session, execute: tools.execute, classify });
    const ok = { id: 'a', name: 'get_logs', args: {} };
    const cases: [unknown, string][] = [
      ['not a batch', 'calls: '],
      [[ok, { id: '', name: 'get_logs' }], 'calls[1].id: expected a non-empty string'],
      [[ok, { id: 'b' }], 'calls[1].name'],
      [[ok, { id: 'b', name: 42 }], 'calls[1].name'],
      [[ok, null], 'calls[1]'],
      [[ok, { ...ok, name: 'get_status' }], 'calls[1].id: repeats the id of calls[0]'],
    ];
    for (const [batch, message] of cases) {
      const error = await rejected(loop.runBatch(batch as never));
      expect(error.code).toBe('INVALID_TOOL_CALL');
      expect(error.message).toContain(message);
    }
    expect(tools.started).toEqual([]);
    expect(recorder.entries.map((e) => e.call.type)).toEqual(['create']);
    // The loop is still usable.
    expect((await drive(tools, loop.runBatch([ok])))[0]!.status).toBe('ok');
  });

  it('should refuse an id already in flight on the session', async () => {
    const tools = createFakeTools();
    const session = createSafetySession();
    session.beginToolCall({ id: 'a', kind: 'read', tool: 'get_logs' });
    const loop = createToolLoop({ session, execute: tools.execute, classify });
    const error = await rejected(loop.runBatch([{ id: 'a', name: 'get_logs' }]));
    expect(error).toMatchObject({ code: 'INVALID_TOOL_CALL', issues: [{ path: ['calls', 0, 'id'] }] });
  });

  it('should refuse a batch the classifier returns no kind for with INVALID_CLASSIFICATION, before anything begins', async () => {
    const tools = createFakeTools();
    const recorder = createMemoryRecorder();
    const session = createSafetySession({ recorder });
    for (const bad of ['delete', undefined, 5n]) {
      const loop = createToolLoop({
        session,
        execute: tools.execute,
        classify: (name) => (name === 'weird' ? (bad as never) : 'read'),
      });
      const error = await rejected(
        loop.runBatch([
          { id: 'a', name: 'get_logs' },
          { id: 'b', name: 'weird' },
        ]),
      );
      expect(error.code).toBe('INVALID_CLASSIFICATION');
      expect(error.message).toContain('calls[1] (weird)');
    }
    expect(tools.started).toEqual([]);
    expect(recorder.entries.map((e) => e.call.type)).toEqual(['create']);
  });

  it("should refuse a call in another SDK's shape (arguments, input) instead of running it with no arguments", async () => {
    const tools = createFakeTools();
    const recorder = createMemoryRecorder();
    const loop = createToolLoop({ session: createSafetySession({ recorder }), execute: tools.execute, classify });
    for (const shape of [{ arguments: { vm: 1 } }, { input: { vm: 1 } }, { arguments: '{"vm":1}' }]) {
      const error = await rejected(
        loop.runBatch([{ id: 'a', name: 'get_logs' }, { id: 'b', name: 'get_logs', ...shape } as never]),
      );
      expect(error.code).toBe('INVALID_TOOL_CALL');
      expect(error.message).toBe(
        `runBatch: calls[1]: has ${Object.keys(shape)[0]} but no args: the loop reads args, the arguments as parsed JSON (JSON.parse a provider's text first)`,
      );
    }
    expect(tools.started).toEqual([]);
    expect(recorder.entries.map((e) => e.call.type)).toEqual(['create']);
    // With args, an extra field a provider adds is dropped as before.
    const ok = loop.runBatch([{ id: 'c', name: 'get_logs', args: {}, arguments: '{}' } as never]);
    expect((await drive(tools, ok))[0]!.status).toBe('ok');
  });

  it('should refuse a second batch while one is running with BATCH_IN_PROGRESS', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify });
    const first = loop.runBatch([{ id: 'a', name: 'get_logs' }]);
    await flush();
    const error = await rejected(loop.runBatch([{ id: 'b', name: 'get_logs' }]));
    expect(error.code).toBe('BATCH_IN_PROGRESS');
    expect(tools.started).toEqual(['a']);
    await drive(tools, first);
    expect((await drive(tools, loop.runBatch([{ id: 'b', name: 'get_logs' }])))[0]!.status).toBe('ok');
  });

  it('should refuse to build a loop without a classifier, naming the fix', () => {
    const build = () => createToolLoop({ session: createSafetySession(), execute: createFakeTools().execute } as never);
    expect(build).toThrow(ToolLoopError);
    expect(build).toThrow(
      /options\.classify: .*no default.*createClassifier\(rules\).*pulseClassifier.*docs\/classification\.md/,
    );
  });

  it('should fail closed as write with the generic classifier when it is chosen', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify: classifyToolCall });
    const outcomes = await drive(
      tools,
      loop.runBatch([
        { id: 'a', name: 'vm', args: { action: 'status' } },
        { id: 'b', name: 'brand_new_tool', args: {} },
      ]),
    );
    expect(outcomes.map((o) => [o.kind, o.status])).toEqual([
      ['read', 'ok'],
      ['write', 'blocked'],
    ]);
  });
});
