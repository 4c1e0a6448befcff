import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardedTool } from 'assistant-safety/openai-agents';
import { OUTCOME_CASES } from '../settle/outcomeTable.js';
import { find, fixture, ScriptedModel, status } from './script.js';

const hostile = OUTCOME_CASES.find((c) => c.name.includes('hostile'))!.thrown!;

describe('guardedTool with a tool that throws a hostile value', () => {
  it('should never leave the call in flight, and allow the final answer once the write is verified', async () => {
    const f = fixture();
    const restartVm = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: z.object({ name: z.string() }),
        execute: async () => {
          throw hostile();
        },
      },
      { session: f.session, classify: f.classify },
    );
    const states: string[] = [];
    const model = new ScriptedModel([
      { calls: [find('c1')] },
      { calls: [{ id: 'w1', name: 'restart_vm', input: { name: 'web-01' } }] },
      { calls: [status('r1')] },
      { text: 'web-01 is running.' },
    ]);
    const respond = model.getResponse.bind(model);
    model.getResponse = (request) => {
      states.push(f.session.state);
      return respond(request);
    };
    const agent = new Agent({ name: 'ops', model, tools: [f.tools.find_vm, restartVm, f.tools.get_vm_status] });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Restart web-01.');
    expect(states[2]).toBe('VERIFYING'); // ended as an unknown outcome, not left WRITING
    expect(f.session.inFlightWrite).toBeUndefined();
    expect(result.finalOutput).toBe('web-01 is running.');
    expect(f.session.state).toBe('READING');
    expect(f.session.canFinalAnswer()).toBeNull();
  });
});
