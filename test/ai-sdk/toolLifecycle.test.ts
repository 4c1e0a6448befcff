import { tool, type ToolExecutionOptions } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClassifier, replayRecording } from 'assistant-safety';
import { guardTools } from 'assistant-safety/ai-sdk';
import { fixture } from './script.js';

const opts = (toolCallId: string, abortSignal?: AbortSignal): ToolExecutionOptions =>
  ({ toolCallId, messages: [], abortSignal }) as never;

/** restart_vm declared self-verifying: its own result may verify its write. */
const selfVerifying = createClassifier({ tools: { restart_vm: { kind: 'write', selfVerifying: true } } });

function gated(
  execute: (input: { name: string }, o: { abortSignal?: AbortSignal }) => unknown,
  classify?: typeof selfVerifying,
) {
  const f = fixture();
  f.session.targetEstablished();
  const tools = guardTools(
    {
      restart_vm: tool({
        description: 'Restarts a VM.',
        inputSchema: z.object({ name: z.string() }),
        execute: execute as never,
      }),
    },
    { session: f.session, classify: classify ?? f.classify },
  );
  return { ...f, run: tools.restart_vm.execute! as (input: unknown, o: ToolExecutionOptions) => unknown };
}

describe('guardTools call lifecycle', () => {
  it('should treat an aborted write as possibly landed: it must be verified', async () => {
    const g = gated(
      (_input, { abortSignal }) =>
        new Promise((_, reject) => abortSignal!.addEventListener('abort', () => reject(abortSignal!.reason))),
    );
    const controller = new AbortController();
    const pending = g.run({ name: 'web-01' }, opts('w1', controller.signal));
    expect(g.session.state).toBe('WRITING');
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(pending).rejects.toThrow('stopped');
    expect(g.session.state).toBe('VERIFYING');
    expect(g.session.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(replayRecording(g.recorder.entries).divergences).toEqual([]);
  });

  it('should end a streaming tool with its last output, keeping its preliminary results', async () => {
    const g = gated(async function* () {
      yield { progress: 'stopping' };
      yield { progress: 'starting', verification: { ok: true } }; // the write verified itself
    }, selfVerifying);
    const outputs = g.run({ name: 'web-01' }, opts('w1'));
    const seen: unknown[] = [];
    for await (const o of outputs as AsyncIterable<unknown>) {
      seen.push(o);
      expect(g.session.state).toBe('WRITING'); // in flight until the last output is in
    }
    expect(seen).toHaveLength(2);
    expect(g.session.state).toBe('READING'); // verified by its own result, verification completed
    expect(g.session.wroteThisEpisode).toBe(true);
  });

  it('should treat a streaming write whose consumer stopped early as possibly landed', async () => {
    const g = gated(async function* () {
      yield { progress: 'stopping' };
      yield { progress: 'starting' };
    });
    for await (const o of g.run({ name: 'web-01' }, opts('w1')) as AsyncIterable<unknown>) {
      void o;
      break;
    }
    expect(g.session.state).toBe('VERIFYING');
  });
});
