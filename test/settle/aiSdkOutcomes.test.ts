import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, createSafetySession } from 'assistant-safety';
import { guardTools } from 'assistant-safety/ai-sdk';
import { scriptedModel } from '../ai-sdk/script.js';
import { OUTCOME_CASES } from './outcomeTable.js';

const classify = createClassifier({ tools: { find: 'resolve', restart: 'write' } });
const Input = z.object({ n: z.number() });

describe('guardTools ends a write by the shared outcome table (AI SDK mock model)', () => {
  for (const c of OUTCOME_CASES) {
    it(`should leave ${c.state} when ${c.name}`, async () => {
      const session = createSafetySession();
      const runs: number[] = [];
      const tools = guardTools(
        {
          find: tool({ inputSchema: Input, execute: async () => 'found' }),
          restart: tool({
            inputSchema: Input,
            execute: async ({ n }) => {
              runs.push(n);
              if (n === 1 && c.thrown) throw c.thrown();
              return 'done';
            },
          }),
        },
        { session, classify },
      );
      const states: string[] = [];
      const result = await generateText({
        model: scriptedModel([
          { calls: [{ id: 'r', name: 'find', input: { n: 0 } }] },
          { calls: [{ id: 'w', name: 'restart', input: { n: 1 } }] },
          { calls: [{ id: 'w2', name: 'restart', input: { n: 2 } }] },
          { text: 'done' },
        ]),
        tools,
        stopWhen: stepCountIs(10),
        prompt: 'Restart it.',
        onStepFinish: () => {
          states.push(session.state);
        },
      });
      const parts = result.steps.flatMap((s) => s.content);
      const first = parts.find((p) => 'toolCallId' in p && p.toolCallId === 'w' && p.type !== 'tool-call');
      expect(first?.type).toBe(c.thrown ? 'tool-error' : 'tool-result');
      expect(states[1]).toBe(c.state);
      const second = parts.find((p) => p.type === 'tool-result' && p.toolCallId === 'w2');
      const reason = (second as { output?: { details?: { reasonCode?: string } } }).output?.details?.reasonCode;
      expect(reason ?? null).toBe(c.next);
      expect(runs).toEqual(c.next ? [1] : [1, 2]);
    });
  }
});
