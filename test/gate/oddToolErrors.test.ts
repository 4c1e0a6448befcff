import { createSafetySession, createToolLoop } from 'assistant-safety';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeTools, flush } from '../loop/fakeTools.js';

const classify = (name: string) => (name.startsWith('get') ? 'read' : 'write');

const hostile = (): [string, unknown][] => [
  ['a null-prototype object', Object.create(null)],
  [
    'an object whose toString throws',
    {
      toString() {
        throw new Error('no');
      },
    },
  ],
  [
    'a Proxy that throws on every trap',
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
      },
    ),
  ],
  ['a symbol', Symbol('odd')],
  [
    'an Error whose message getter throws',
    Object.defineProperty(new Error(), 'message', {
      get() {
        throw new Error('no');
      },
    }),
  ],
];

/** Issue 16 item 2: one odd tool error must not kill the agent process. */
describe('tool errors of any value', () => {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown) => crashes.push(e);
  beforeEach(() => {
    crashes.length = 0;
    process.on('unhandledRejection', onCrash);
    process.on('uncaughtException', onCrash);
  });
  afterEach(() => {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
  });

  for (const [what, value] of hostile()) {
    it(`should turn a tool rejecting with ${what} into a TOOL_ERROR outcome`, async () => {
      const tools = createFakeTools();
      const session = createSafetySession();
      session.targetEstablished();
      const loop = createToolLoop({ session, execute: tools.execute, classify });
      const batch = loop.runBatch([
        { id: 'r', name: 'get_vm' },
        { id: 'w', name: 'restart_vm' },
      ]);
      await flush();
      tools.reject('r', value);
      tools.reject('w', value);
      const outcomes = await batch;
      await flush();
      expect(outcomes.map((o) => o.error?.error)).toEqual(['TOOL_ERROR', 'TOOL_ERROR']);
      expect(typeof outcomes[0]!.error!.message).toBe('string');
      expect(session.context.calls).toEqual({});
      expect(crashes).toEqual([]);
    });

    it(`should turn an abort with ${what} into TOOL_ABORTED outcomes`, async () => {
      const tools = createFakeTools();
      const controller = new AbortController();
      const session = createSafetySession();
      session.targetEstablished();
      const loop = createToolLoop({ session, execute: tools.execute, classify, signal: controller.signal });
      const batch = loop.runBatch([
        { id: 'r', name: 'get_vm' },
        { id: 'w', name: 'restart_vm' },
      ]);
      await flush();
      controller.abort(value);
      const outcomes = await batch;
      await flush();
      expect(outcomes.map((o) => o.error?.error)).toEqual(['TOOL_ABORTED', 'TOOL_ABORTED']);
      expect(crashes).toEqual([]);
      // A later batch sees the loop aborted and runs nothing, without crashing either.
      const later = await loop.runBatch([{ id: 'r2', name: 'get_vm' }]);
      expect(later[0]!.error?.error).toBe('TOOL_ABORTED');
      expect(crashes).toEqual([]);
    });
  }

  it('should settle a batch whose tool throws synchronously with a hostile value', async () => {
    const session = createSafetySession();
    session.targetEstablished();
    const loop = createToolLoop({
      session,
      classify,
      execute: () => {
        throw Object.create(null);
      },
    });
    const outcomes = await loop.runBatch([{ id: 'r', name: 'get_vm' }]);
    expect(outcomes[0]!.error?.error).toBe('TOOL_ERROR');
    expect(crashes).toEqual([]);
  });

  it('should treat a hostile result of a write as no verification evidence', async () => {
    const session = createSafetySession();
    session.targetEstablished();
    const result = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
      },
    );
    const loop = createToolLoop({ session, classify, execute: async () => result });
    const outcomes = await loop.runBatch([{ id: 'w', name: 'restart_vm' }]);
    expect(outcomes[0]!.status).toBe('ok');
    expect(session.state).toBe('VERIFYING');
    expect(session.readAfterWrite).toBe(false);
  });
});
