import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSafetySession } from 'assistant-safety';
import { guardModel, guardTools } from 'assistant-safety/ai-sdk';
import { OUTCOME_CASES } from '../settle/outcomeTable.js';
import { fixture, find, scriptedModel, status } from './script.js';

const hostile = OUTCOME_CASES.find((c) => c.name.includes('hostile'))!.thrown!;

describe('guardTools with a tool that throws a hostile value', () => {
  it('should never leave the call in flight, and allow the final answer once the write is verified', async () => {
    const f = fixture();
    const session = createSafetySession();
    const tools = guardTools(
      {
        ...f.tools,
        restart_vm: tool({
          inputSchema: z.object({ name: z.string() }),
          execute: async (): Promise<string> => {
            throw hostile();
          },
        }),
      },
      { session, classify: f.classify },
    );
    const result = await generateText({
      model: guardModel(
        scriptedModel([
          { calls: [find('c1')] },
          { calls: [{ id: 'w1', name: 'restart_vm', input: { name: 'web-01' } }] },
          { calls: [status('r1')] },
          { text: 'web-01 is running.' },
        ]),
        { session },
      ),
      tools,
      stopWhen: stepCountIs(10),
      prompt: 'Restart web-01.',
    });
    const error = result.steps.flatMap((s) => s.content).find((p) => p.type === 'tool-error');
    expect(String((error as { error?: unknown }).error)).toContain('cannot be read');
    expect(session.inFlightWrite).toBeUndefined();
    expect(result.text).toBe('web-01 is running.'); // no re-prompt: the read verified the possible write
    expect(session.state).toBe('READING');
    expect(session.wroteThisEpisode).toBe(true); // the write may have landed: it was verified, not forgotten
  });
});
