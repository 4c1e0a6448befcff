import { createMemoryRecorder, createSafetySession, createToolLoop, ToolLoopError } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { createFakeTools } from '../loop/fakeTools.js';

const classify = (name: string) => (name.startsWith('get') ? 'read' : 'write');

function deep(n: number) {
  let v: unknown = 0;
  for (let i = 0; i < n; i++) v = { v };
  return v;
}

/** Issue 16 item 7: a batch is validated whole before anything begins. */
describe('bad arguments in a batch', () => {
  for (const [what, args] of [
    ['nested 100,000 deep', deep(100_000)],
    [
      'with a throwing getter',
      Object.defineProperty({}, 'x', {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      }),
    ],
    [
      'as a hostile Proxy',
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap');
          },
        },
      ),
    ],
  ] as const) {
    it(`should throw INVALID_TOOL_CALL naming the call before anything begins, for args ${what}`, async () => {
      const tools = createFakeTools();
      const recorder = createMemoryRecorder();
      const session = createSafetySession({ recorder, failedWriteRequiresVerification: true });
      session.targetEstablished();
      const loop = createToolLoop({ session, execute: tools.execute, classify });
      const before = recorder.entries.length;
      const error = await loop
        .runBatch([
          { id: 'r', name: 'get_vm' },
          { id: 'w', name: 'restart_vm' },
          { id: 'bad', name: 'get_logs', args },
        ])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolLoopError);
      expect((error as ToolLoopError).code).toBe('INVALID_TOOL_CALL');
      expect((error as ToolLoopError).issues[0]!.path).toEqual(['calls', 2, 'args']);
      expect(recorder.entries.length).toBe(before);
      expect(session.state).toBe('READING');
      expect(tools.started).toEqual([]);
    });
  }

  it('should answer a hostile Proxy as the batch itself with INVALID_TOOL_CALL', async () => {
    const session = createSafetySession();
    const loop = createToolLoop({ session, execute: async () => 1, classify });
    const batch = new Proxy([], {
      get() {
        throw new Error('trap');
      },
    });
    const error = await loop.runBatch(batch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopError);
    expect((error as ToolLoopError).code).toBe('INVALID_TOOL_CALL');
  });
});
