import { Agent, OutputGuardrailTripwireTriggered, Runner, type RunItem } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from 'assistant-safety';
import { finalAnswerGuardrail, guardModel, guardedTool } from 'assistant-safety/openai-agents';
import { find, fixture, lastUserText, restart, ScriptedModel, status, stop, type Turn } from './script.js';

type Mode = 'run' | 'stream';

async function runAgent(mode: Mode, turns: Turn[], maxRePrompts?: number) {
  const f = fixture();
  const fake = new ScriptedModel(turns);
  const agent = new Agent({
    name: 'ops',
    instructions: 'You operate VMs.',
    model: guardModel(fake, { session: f.session, ...(maxRePrompts !== undefined && { maxRePrompts }) }),
    tools: Object.values(f.tools),
    outputGuardrails: [finalAnswerGuardrail({ session: f.session })],
  });
  const runner = new Runner({ tracingDisabled: true });
  let finalOutput: unknown;
  let items: RunItem[] = [];
  let error: unknown;
  try {
    if (mode === 'run') {
      const result = await runner.run(agent, 'Restart web-01.');
      finalOutput = result.finalOutput;
      items = result.newItems;
    } else {
      const result = await runner.run(agent, 'Restart web-01.', { stream: true });
      for await (const event of result) void event;
      await result.completed;
      if (result.error) throw result.error;
      finalOutput = result.finalOutput;
      items = result.newItems;
    }
  } catch (e) {
    error = e;
  }
  return { ...f, fake, finalOutput, items, error };
}

/** The output the runner recorded for a call id. */
function outputOf(items: RunItem[], id: string): unknown {
  for (const item of items) {
    const raw = item.rawItem as { type?: string; callId?: string };
    if (item.type === 'tool_call_output_item' && raw.callId === id) return (item as { output: unknown }).output;
  }
  return undefined;
}

const parsed = (output: unknown) => (typeof output === 'string' ? JSON.parse(output) : output);
const reasonOf = (output: unknown) => parsed(output)?.details?.reasonCode;

function expectReplays(recorder: { entries: Parameters<typeof replayRecording>[0]; toJSONL(): string }) {
  const entries = parseRecording(recorder.toJSONL());
  expect(entries).toHaveLength(recorder.entries.length);
  expect(replayRecording(entries).divergences).toEqual([]);
}

describe.each<Mode>(['run', 'stream'])('assistant-safety/openai-agents (%s)', (mode) => {
  it('should refuse a write before discovery with the envelope as its output and never run it', async () => {
    const r = await runAgent(mode, [{ calls: [restart('w1')] }, { text: 'I could not restart web-01.' }]);
    expect(r.error).toBeUndefined();
    expect(parsed(outputOf(r.items, 'w1'))).toMatchObject({
      error: 'FSM_BLOCKED',
      details: { reasonCode: 'NO_VALIDATED_TARGET' },
    });
    expect(r.runs).toEqual([]);
    expect(r.finalOutput).toBe('I could not restart web-01.');
    expectReplays(r.recorder);
  });

  it('should run discovery and one write, refuse the second write of the turn, and let the verified answer stand', async () => {
    const r = await runAgent(mode, [
      { calls: [find('c1')] },
      { calls: [restart('w1'), stop('w2')] },
      { calls: [status('r1')] },
      { text: 'web-01 was restarted and is running.' },
    ]);
    expect(r.error).toBeUndefined();
    expect(parsed(outputOf(r.items, 'w1'))).toEqual({ restarted: 'web-01' });
    expect(['WRITE_IN_FLIGHT', 'UNVERIFIED_WRITE']).toContain(reasonOf(outputOf(r.items, 'w2')));
    expect(r.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    expect(r.finalOutput).toBe('web-01 was restarted and is running.');
    expect(r.fake.requests).toHaveLength(4);
    expect(r.session.state).toBe('READING');
    expectReplays(r.recorder);
  });

  it('should re-prompt a final answer claimed before verification with FINAL_ANSWER_UNVERIFIED, then end on the verified answer', async () => {
    const r = await runAgent(mode, [
      { calls: [find('c1')] },
      { calls: [restart('w1')] },
      { text: 'Done: web-01 restarted.' },
      { calls: [status('r1')] },
      { text: 'web-01 restarted; it is running.' },
    ]);
    expect(r.error).toBeUndefined();
    const shown = lastUserText(r.fake.requests[3]!);
    expect(JSON.parse(shown.split('\n')[0]!)).toMatchObject({
      error: 'FSM_BLOCKED',
      details: { reasonCode: 'FINAL_ANSWER_UNVERIFIED' },
    });
    expect(JSON.stringify(r.fake.requests[3]!.input)).toContain('Done: web-01 restarted.');
    expect(r.finalOutput).toBe('web-01 restarted; it is running.');
    expect(r.session.state).toBe('READING');
    expectReplays(r.recorder);
  });

  it('should stop the answer with the output guardrail, the envelope in outputInfo, after maxRePrompts', async () => {
    const r = await runAgent(
      mode,
      [{ calls: [find('c1')] }, { calls: [restart('w1')] }, { text: 'Done.' }, { text: 'Done, really.' }],
      1,
    );
    expect(r.fake.requests).toHaveLength(4); // one re-prompt
    expect(r.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const tripped = r.error as OutputGuardrailTripwireTriggered<never>;
    expect(tripped.result.output.outputInfo).toMatchObject({
      error: 'FSM_BLOCKED',
      details: { reasonCode: 'FINAL_ANSWER_UNVERIFIED' },
    });
    expect(r.finalOutput).toBeUndefined();
    expect(r.session.state).toBe('VERIFYING');
    expectReplays(r.recorder);
  });
});

describe('guardedTool', () => {
  it('should end a throwing tool as a failed call and let the SDK word the error for the model', async () => {
    const f = fixture();
    const failing = guardedTool(
      {
        name: 'restart_vm',
        description: 'Restarts a VM.',
        parameters: { type: 'object', properties: {}, required: [], additionalProperties: true } as never,
        strict: false,
        execute: async () => {
          throw new Error('hypervisor unreachable');
        },
      },
      { session: f.session, classify: f.classify },
    );
    const agent = new Agent({
      name: 'ops',
      model: new ScriptedModel([{ calls: [find('c1')] }, { calls: [restart('w1')] }, { text: 'It failed.' }]),
      tools: [f.tools.find_vm, failing],
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Restart web-01.');
    expect(String(outputOf(result.newItems, 'w1'))).toContain('An error occurred');
    expect(f.session.state).toBe('READING'); // a failed write returns to READING
    expect(f.recorder.entries.some((e) => e.call.type === 'endToolCall' && e.call.ok === false)).toBe(true);
    expectReplays(f.recorder);
  });

  it('should name the bad option', () => {
    const f = fixture();
    expect(() =>
      guardedTool(
        { name: 'x', description: 'x', parameters: undefined as never, execute: async () => 'x' },
        { session: f.session, classify: 1 as never },
      ),
    ).toThrow(/guard\.classify/);
    expect(() => guardModel(new ScriptedModel([]), { session: f.session, maxRePrompts: 1.5 })).toThrow(
      /options\.maxRePrompts/,
    );
  });
});
