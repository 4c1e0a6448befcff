import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createMemoryRecorder, createSafetySession } from 'assistant-safety';
import { guardedTool } from 'assistant-safety/openai-agents';
import { restart, ScriptedModel } from './script.js';

describe('guardedTool on a shadow-mode session', () => {
  it('should run a call enforcement would block and record the would-be block', async () => {
    const recorder = createMemoryRecorder();
    const session = createSafetySession({ mode: 'shadow', recorder });
    const runs: string[] = [];
    const restartVm = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: z.object({ name: z.string() }),
        execute: async ({ name }) => (runs.push(name), { restarted: name }),
      },
      { session, classify: createClassifier({ tools: { restart_vm: 'write' } }) },
    );
    const agent = new Agent({
      name: 'ops',
      model: new ScriptedModel([{ calls: [restart('w1')] }, { text: 'Restarted.' }]),
      tools: [restartVm],
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Restart web-01.');
    expect(runs).toEqual(['web-01']);
    expect(result.finalOutput).toBe('Restarted.');
    const begin = recorder.entries.find((e) => e.call.type === 'beginToolCall');
    expect(begin).toMatchObject({ decision: 'allowed', wouldBlock: 'NO_VALIDATED_TARGET' });
    expect(session.inFlightWrite).toBeUndefined();
  });
});
