import { createClassifier, createSafetySession, createToolLoop, FSMBlockedError } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive, flush, kinds } from './fakeTools.js';

describe('final answer', () => {
  it('should allow a final answer when nothing was written', async () => {
    const tools = createFakeTools();
    const loop = createToolLoop({ session: createSafetySession(), execute: tools.execute, classify });
    await drive(tools, loop.runBatch([{ id: 'r', name: 'get_logs', args: {} }]));
    expect(loop.finalAnswer()).toEqual({ allowed: true });
  });

  it('should refuse an unverified write with a constraint that names the last written tool and no tool to call', async () => {
    const tools = createFakeTools();
    const session = createSafetySession();
    const loop = createToolLoop({ session, execute: tools.execute, classify });
    await drive(tools, loop.runBatch([{ id: 'f', name: 'find_vm', args: { name: 'web-01' } }]));
    await drive(tools, loop.runBatch([{ id: 'w1', name: 'restart_vm', args: { vm: 'web-01' } }]));
    await drive(tools, loop.runBatch([{ id: 'r', name: 'get_logs', args: {} }]));
    await drive(tools, loop.runBatch([{ id: 'w2', name: 'stop_vm', args: { vm: 'web-01' } }]));
    const answer = loop.finalAnswer();
    if (answer.allowed) throw new Error('expected a refusal');
    expect(answer.error).toBeInstanceOf(FSMBlockedError);
    expect(answer.error.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(answer.constraint).toBe(
      'Verification evidence is required before responding about the write result for stop_vm.',
    );
    // Names the write it is about, and no other tool: it states a fact, it does not steer.
    for (const name of Object.keys(kinds).filter((n) => n !== 'stop_vm')) expect(answer.constraint).not.toContain(name);
    expect(answer.constraint).not.toMatch(/\b(call|use|run|try|invoke)\b/i);
  });

  it('should name, under target binding, the targets still to be read back, and still no tool to call', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const loop = createToolLoop({
      session,
      classify: createClassifier({
        tools: {
          get_vm: { kind: 'read', targets: ['vm'], prefix: 'vm:' },
          restart_vm: { kind: 'write', targets: ['vm'], prefix: 'vm:' },
        },
      }),
      execute: async () => ({ ok: true }),
    });
    await loop.runBatch([{ id: 'r1', name: 'get_vm', args: { vm: 'web-01' } }]);
    await loop.runBatch([{ id: 'r2', name: 'get_vm', args: { vm: 'web-02' } }]);
    await loop.runBatch([{ id: 'w1', name: 'restart_vm', args: { vm: 'web-01' } }]);
    await loop.runBatch([{ id: 'r3', name: 'get_vm', args: { vm: 'web-02' } }]); // not the one restarted
    const answer = loop.finalAnswer();
    if (answer.allowed) throw new Error('expected a refusal');
    expect(answer.constraint).toBe(
      'Verification evidence about vm:web-01 is required before responding about the write result for restart_vm.',
    );
    expect(answer.constraint).not.toContain('get_vm');
  });

  it('should refuse while a write is in flight, naming it', async () => {
    const tools = createFakeTools();
    const session = createSafetySession();
    session.targetEstablished();
    const loop = createToolLoop({ session, execute: tools.execute, classify });
    const batch = loop.runBatch([{ id: 'w', name: 'restart_vm', args: {} }]);
    await flush();
    const answer = loop.finalAnswer();
    expect(answer).toMatchObject({
      allowed: false,
      constraint:
        'The write restart_vm is still in flight; its result and verification evidence are required before responding about it.',
    });
    await drive(tools, batch);
  });
});
