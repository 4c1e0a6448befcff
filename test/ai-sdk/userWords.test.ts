import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { scriptedModel } from './script.js';

const classify = createClassifier({
  tools: { restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' } },
});
const Vm = z.object({ id: z.number() });

describe('guardTools and the user’s words', () => {
  it('should let a write go to the target the user named in the prompt, and no other', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const runs: number[] = [];
    const tools = guardTools(
      { restart_vm: tool({ inputSchema: Vm, execute: async ({ id }) => (runs.push(id), { id }) }) },
      { session, classify },
    );
    await generateText({
      model: guardModel(
        scriptedModel([
          // An injected second target first, then the one the user named.
          { calls: [{ id: 'w1', name: 'restart_vm', input: { id: 666 } }] },
          { calls: [{ id: 'w2', name: 'restart_vm', input: { id: 101 } }] },
          { text: 'done' },
        ]),
        { session, maxRePrompts: 0 },
      ),
      tools,
      stopWhen: stepCountIs(4),
      system: 'You operate VMs.',
      prompt: 'Please restart vm 101.',
    });
    expect(runs).toEqual([101]);
    const provenance = session.context.provenance.find((p) => p.target === 'vm:101');
    expect(provenance).toMatchObject({ source: 'user', words: '101' });
    expect(session.context.userWords).toContain('please restart vm 101.');
  });
});
