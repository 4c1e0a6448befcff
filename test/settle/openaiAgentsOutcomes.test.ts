import { Agent, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardedTool } from 'assistant-safety/openai-agents';
import { ScriptedModel } from '../openai-agents/script.js';
import { OUTCOME_CASES } from './outcomeTable.js';

const classify = createClassifier({ tools: { find: 'resolve', restart: 'write' } });
const Input = z.object({ n: z.number() });

describe('guardedTool ends a write by the shared outcome table (Agents SDK test model)', () => {
  for (const c of OUTCOME_CASES) {
    it(`should leave ${c.state} when ${c.name}`, async () => {
      const session = createSafetySession();
      const guard = { session, classify };
      const runs: number[] = [];
      const find = guardedTool(
        { name: 'find', description: 'Finds.', parameters: Input, execute: async () => 'found' },
        guard,
      );
      const restart = guardedTool(
        {
          name: 'restart',
          description: 'Restarts.',
          parameters: Input,
          execute: async ({ n }) => {
            runs.push(n);
            if (n === 1 && c.thrown) throw c.thrown();
            return 'done';
          },
        },
        guard,
      );
      const model = new ScriptedModel([
        { calls: [{ id: 'r', name: 'find', input: { n: 0 } }] },
        { calls: [{ id: 'w', name: 'restart', input: { n: 1 } }] },
        { calls: [{ id: 'w2', name: 'restart', input: { n: 2 } }] },
        { text: 'done' },
      ]);
      const states: string[] = []; // the session's state at each model request
      const respond = model.getResponse.bind(model);
      model.getResponse = (request) => {
        states.push(session.state);
        return respond(request);
      };
      const agent = new Agent({ name: 'ops', model, tools: [find, restart] });
      const result = await new Runner({ tracingDisabled: true }).run(agent, 'Restart it.');
      expect(result.finalOutput).toBe('done');
      const outputs = result.newItems
        .filter((i) => i.type === 'tool_call_output_item')
        .map((i) => (i as unknown as { rawItem: { callId: string }; output: unknown }).rawItem.callId);
      expect(outputs).toEqual(['r', 'w', 'w2']);
      const second = result.newItems.find(
        (i) => i.type === 'tool_call_output_item' && (i.rawItem as { callId?: string }).callId === 'w2',
      ) as unknown as { output: unknown };
      const envelope = typeof second.output === 'string' ? safeJson(second.output) : second.output;
      const reason = (envelope as { details?: { reasonCode?: string } } | null)?.details?.reasonCode;
      expect(reason ?? null).toBe(c.next);
      expect(runs).toEqual(c.next ? [1] : [1, 2]);
      expect(states[2]).toBe(c.state); // what the first write left when the model asked for the second
      expect(session.inFlightWrite).toBeUndefined();
    });
  }
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
