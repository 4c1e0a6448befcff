import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { parseRecording, replayRecording } from 'assistant-safety';
import { guardModel, guardTools, METADATA_KEY, type FinalAnswerFlag } from 'assistant-safety/ai-sdk';
import { find, fixture, restart, scriptedModel, status, stop, type Turn } from './script.js';

type Mode = 'generateText' | 'streamText';

async function runAgent(mode: Mode, turns: Turn[], maxRePrompts?: number) {
  const f = fixture();
  const mock = scriptedModel(turns);
  const model = guardModel(mock, { session: f.session, ...(maxRePrompts !== undefined && { maxRePrompts }) });
  const tools: ToolSet = guardTools(f.tools, { session: f.session, classify: f.classify });
  const args = { model, tools, stopWhen: stepCountIs(10), prompt: 'Restart web-01.' };
  let out;
  if (mode === 'generateText') {
    const r = await generateText(args);
    out = { text: r.text, steps: r.steps, providerMetadata: r.providerMetadata, warnings: r.warnings };
  } else {
    const r = streamText(args);
    let streamed = '';
    for await (const delta of r.textStream) streamed += delta;
    out = {
      text: await r.text,
      streamed,
      steps: await r.steps,
      providerMetadata: await r.providerMetadata,
      warnings: await r.warnings,
    };
  }
  const calls = mode === 'generateText' ? mock.doGenerateCalls : mock.doStreamCalls;
  return { ...f, ...out, calls };
}

/** The tool result (or error) the SDK recorded for a call id. */
function outputOf(steps: { content: readonly unknown[] }[], id: string): unknown {
  for (const step of steps) {
    for (const part of step.content as { type: string; toolCallId?: string; output?: unknown; error?: unknown }[]) {
      if (part.toolCallId === id && part.type === 'tool-result') return part.output;
      if (part.toolCallId === id && part.type === 'tool-error') return { toolError: part.error };
    }
  }
  return undefined;
}

const reasonOf = (output: unknown) => (output as { details?: { reasonCode?: string } }).details?.reasonCode;

function expectReplays(recorder: { entries: Parameters<typeof replayRecording>[0]; toJSONL(): string }) {
  const parsed = parseRecording(recorder.toJSONL());
  expect(parsed).toHaveLength(recorder.entries.length);
  expect(replayRecording(parsed).divergences).toEqual([]);
}

describe.each<Mode>(['generateText', 'streamText'])('assistant-safety/ai-sdk with %s', (mode) => {
  it('should refuse a write before discovery with the envelope as its tool result and never run it', async () => {
    const r = await runAgent(mode, [{ calls: [restart('w1')] }, { text: 'I could not restart web-01.' }]);
    const output = outputOf(r.steps, 'w1');
    expect(output).toMatchObject({ error: 'FSM_BLOCKED', details: { reasonCode: 'NO_VALIDATED_TARGET' } });
    expect(r.runs).toEqual([]);
    expect(r.session.state).toBe('RESOLVING');
    expect(r.text).toBe('I could not restart web-01.');
    expectReplays(r.recorder);
  });

  it('should run discovery and one write, refuse the second write of the step, and let the verified answer stand', async () => {
    const r = await runAgent(mode, [
      { calls: [find('c1')] },
      { calls: [restart('w1'), stop('w2')] },
      { calls: [status('r1')] },
      { text: 'web-01 was restarted and is running.' },
    ]);
    expect(outputOf(r.steps, 'w1')).toEqual({ restarted: 'web-01' });
    expect(['WRITE_IN_FLIGHT', 'UNVERIFIED_WRITE']).toContain(reasonOf(outputOf(r.steps, 'w2')));
    expect(r.runs).toEqual(['find_vm web-01', 'restart_vm web-01', 'get_vm_status web-01']);
    expect(r.text).toBe('web-01 was restarted and is running.');
    expect(r.providerMetadata?.[METADATA_KEY]).toBeUndefined();
    expect(r.calls).toHaveLength(4); // no re-prompt
    expect(r.session.state).toBe('READING'); // the read completed the verification
    expectReplays(r.recorder);
  });

  it('should re-prompt a final answer claimed before verification with FINAL_ANSWER_UNVERIFIED, then end on the verified answer', async () => {
    const r = await runAgent(mode, [
      { calls: [find('c1')] },
      { calls: [restart('w1')] },
      { text: 'Done: web-01 restarted.' }, // claimed before any read
      { calls: [status('r1')] }, // the model's answer to the re-prompt
      { text: 'web-01 restarted; it is running.' },
    ]);
    const rePrompt = r.calls[3]!.prompt;
    const [claimed, shown] = rePrompt.slice(-2);
    expect(claimed).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Done: web-01 restarted.' }] });
    expect(shown?.role).toBe('user');
    const text = (shown?.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({
      error: 'FSM_BLOCKED',
      details: { reasonCode: 'FINAL_ANSWER_UNVERIFIED' },
    });
    expect(text).toContain('restart_vm');
    expect(r.text).toBe('web-01 restarted; it is running.');
    if ('streamed' in r) expect(r.streamed).not.toContain('Done: web-01 restarted.'); // never streamed out
    expect(r.steps).toHaveLength(4);
    expect(r.providerMetadata?.[METADATA_KEY]).toBeUndefined();
    expect(r.session.state).toBe('READING');
    expectReplays(r.recorder);
  });

  it('should pass the answer flagged in providerMetadata and warnings after maxRePrompts', async () => {
    const r = await runAgent(
      mode,
      [{ calls: [find('c1')] }, { calls: [restart('w1')] }, { text: 'Done.' }, { text: 'Done, really.' }],
      1,
    );
    expect(r.calls).toHaveLength(4); // one re-prompt
    expect(r.text).toBe('Done, really.');
    const flag = r.providerMetadata?.[METADATA_KEY] as unknown as FinalAnswerFlag;
    expect(flag).toMatchObject({
      finalAnswerBlocked: true,
      rePrompts: 1,
      envelope: { error: 'FSM_BLOCKED', details: { reasonCode: 'FINAL_ANSWER_UNVERIFIED' } },
    });
    expect(JSON.stringify(r.warnings)).toContain('final answer passed while blocked');
    expect(r.session.state).toBe('VERIFYING');
    expectReplays(r.recorder);
  });

  it('should end a throwing tool as a failed call and rethrow it as the tool error', async () => {
    const f = fixture();
    const boom = new Error('hypervisor unreachable');
    const tools = guardTools(
      { ...f.tools, restart_vm: { ...f.tools.restart_vm, execute: async () => Promise.reject(boom) } },
      { session: f.session, classify: f.classify },
    );
    const args = {
      model: guardModel(scriptedModel([{ calls: [find('c1')] }, { calls: [restart('w1')] }, { text: 'It failed.' }]), {
        session: f.session,
      }),
      tools,
      stopWhen: stepCountIs(10),
      prompt: 'Restart web-01.',
    };
    const steps = mode === 'generateText' ? (await generateText(args)).steps : await streamText(args).steps;
    expect(outputOf(steps, 'w1')).toEqual({ toolError: boom });
    expect(f.session.state).toBe('READING'); // a failed write returns to READING
    expect(f.recorder.entries.map((e) => e.call.type === 'endToolCall' && e.call.ok)).toContain(false);
    expectReplays(f.recorder);
  });
});

describe('guardTools', () => {
  it('should leave tools without execute and provider-executed tools as they are', () => {
    const f = fixture();
    const manual = { description: 'Asks a human.', inputSchema: {} };
    const provider = { type: 'provider', id: 'x.search', args: {}, isProviderExecuted: true, execute: () => 1 };
    const out = guardTools({ manual, provider }, { session: f.session, classify: f.classify });
    expect(out.manual).toBe(manual);
    expect(out.provider).toBe(provider);
  });

  it('should name the bad option', () => {
    const f = fixture();
    expect(() => guardTools({}, { session: f.session, classify: 'read' as never })).toThrow(/options\.classify/);
    expect(() => guardModel(scriptedModel([]), { session: f.session, maxRePrompts: -1 })).toThrow(
      /options\.maxRePrompts/,
    );
  });

  it('should name a model of an older specification instead of wrapping it', () => {
    const f = fixture();
    const old = { ...scriptedModel([]), specificationVersion: 'v2', provider: 'old-provider' };
    expect(() => guardModel(old as never, { session: f.session })).toThrow(
      /guardModel: model: expected a LanguageModelV3 .*'v2' from old-provider/,
    );
    // Not a model at all (a tool set, a config object): said as such, not as an unknown version.
    expect(() => guardModel({ doGenerate() {} } as never, { session: f.session })).toThrow(
      /guardModel: model: expected a language model .* got an object without specificationVersion/,
    );
  });

  it('should classify a call as a write when the classifier throws (fail closed)', async () => {
    const f = fixture();
    const tools = guardTools(f.tools, {
      session: f.session,
      classify: () => {
        throw new Error('bug');
      },
    });
    const output = await tools.find_vm.execute!({ name: 'web-01' }, { toolCallId: 'c1', messages: [] });
    expect(output).toMatchObject({ details: { reasonCode: 'NO_VALIDATED_TARGET', toolKind: 'write' } });
    expect(f.runs).toEqual([]);
  });
});
