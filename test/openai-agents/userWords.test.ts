import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardedTool, guardModel } from 'assistant-safety/openai-agents';
import { ScriptedModel } from './script.js';

const classify = createClassifier({
  tools: { restart_vm: { kind: 'write', targets: ['id'], prefix: 'vm:' } },
});
const Vm = z.object({ id: z.number() });

describe('guardModel and the user’s words', () => {
  it('should tell the session the run’s input, so a write goes to the target the user named and no other', async () => {
    const session = createSafetySession({ targets: 'bind' });
    const runs: number[] = [];
    const restartVm = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: Vm,
        execute: async ({ id }) => (runs.push(id), { id }),
      },
      { session, classify },
    );
    const agent = new Agent({
      name: 'ops',
      instructions: 'You operate VMs.',
      model: guardModel(
        new ScriptedModel([
          { calls: [{ id: 'w1', name: 'restart_vm', input: { id: 666 } }] },
          { calls: [{ id: 'w2', name: 'restart_vm', input: { id: 101 } }] },
          { text: 'done' },
        ]),
        { session, maxRePrompts: 0 },
      ),
      tools: [restartVm],
    });
    await new Runner({ tracingDisabled: true }).run(agent, 'Please restart vm 101.');
    expect(runs).toEqual([101]);
    expect(session.context.provenance.find((p) => p.target === 'vm:101')).toMatchObject({ source: 'user' });
    expect(session.context.userWords).toEqual(['you operate vms.', 'please restart vm 101.']);
  });
});
