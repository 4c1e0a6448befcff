import { createMemoryRecorder, createSafetySession, pulseClassifier, type ToolKind } from 'assistant-safety';

// Your tools. Here: a fake infrastructure with one VM.
const tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
  pulse_query: async () => ({ resources: [{ id: 'vm-101', status: 'stuck' }] }),
  pulse_control: async () => ({ ok: true }),
  pulse_get_resource: async () => ({ id: 'vm-101', status: 'running' }),
};

const recorder = createMemoryRecorder();
const session = createSafetySession({ recorder });

// One turn's worth of tool calls, as a model might return them.
const calls = [
  { id: 'call_1', name: 'pulse_control', args: { action: 'restart', id: 'vm-101' } }, // too early: no target yet
  { id: 'call_2', name: 'pulse_query', args: { query: 'vm-101' } },
];

async function run(call: { id: string; name: string; args: Record<string, unknown> }) {
  const kind: ToolKind = pulseClassifier(call.name, call.args);
  const blocked = session.beginToolCall({ id: call.id, kind, tool: call.name });
  if (blocked) return blocked.toJSON(); // goes back to the model as the tool result
  try {
    const result = await tools[call.name]!(call.args);
    session.endToolCall({ id: call.id, ok: true });
    return result;
  } catch (error) {
    session.endToolCall({ id: call.id, ok: false });
    return { error: 'tool_failed', message: String(error) };
  }
}

console.log(await run(calls[0]!)); // { error: 'FSM_BLOCKED', ... reasonCode: 'NO_VALIDATED_TARGET' }
console.log(await run(calls[1]!)); // the query runs: RESOLVING -> READING
console.log(await run({ id: 'call_3', name: 'pulse_control', args: { action: 'restart', id: 'vm-101' } })); // -> VERIFYING
console.log(session.canFinalAnswer()?.reasonCode); // 'FINAL_ANSWER_UNVERIFIED': look before you claim
console.log(await run({ id: 'call_4', name: 'pulse_get_resource', args: { id: 'vm-101' } })); // evidence after the write
session.completeVerification(); // VERIFYING -> READING: the next write may go
console.log(session.state, session.canFinalAnswer()); // READING null
console.log(`${recorder.entries.length} recorded entries`);
