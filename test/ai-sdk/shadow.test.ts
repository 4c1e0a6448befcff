import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession } from 'assistant-safety';
import { guardTools } from 'assistant-safety/ai-sdk';
import { fixture, restart, scriptedModel } from './script.js';

describe('guardTools on a shadow-mode session', () => {
  it('should run a call enforcement would block and record the would-be block', async () => {
    const f = fixture();
    const recorder = createMemoryRecorder();
    const session = createSafetySession({ mode: 'shadow', recorder });
    const result = await generateText({
      model: scriptedModel([{ calls: [restart('w1')] }, { text: 'Restarted.' }]),
      tools: guardTools(f.tools, { session, classify: f.classify }),
      stopWhen: stepCountIs(5),
      prompt: 'Restart web-01.',
    });
    expect(f.runs).toEqual(['restart_vm web-01']);
    expect(result.text).toBe('Restarted.');
    const begin = recorder.entries.find((e) => e.call.type === 'beginToolCall');
    expect(begin).toMatchObject({ decision: 'allowed', wouldBlock: 'NO_VALIDATED_TARGET' });
    expect(session.inFlightWrite).toBeUndefined();
  });
});
