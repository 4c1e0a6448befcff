import { createSafetySession, createToolLoop, pulseClassifier, type ToolCall } from 'assistant-safety';

// The model's side, shaped like a Messages API response. Scripted here so this runs offline;
// in your code this is e.g. `client.messages.create({ model, messages, tools })`.
type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
type Message = { role: 'user' | 'assistant'; content: string | Block[] | object[] };
const use = (id: string, name: string, input: unknown): Block => ({ type: 'tool_use', id, name, input });
const script: Block[][] = [
  [use('toolu_01', 'pulse_control', { action: 'restart', target: 'vm-101' })], // too early: no target yet
  [use('toolu_02', 'pulse_query', { query: 'vm-101' })],
  [
    use('toolu_03', 'pulse_control', { action: 'restart', target: 'vm-101' }),
    use('toolu_04', 'pulse_read', { action: 'status', target: 'vm-101' }), // runs beside the write: no evidence
  ],
  [{ type: 'text', text: 'vm-101 has been restarted.' }], // refused: the write is unverified
  [use('toolu_05', 'pulse_read', { action: 'status', target: 'vm-101' })],
  [{ type: 'text', text: 'vm-101 was restarted and reports running.' }],
];
async function callModel(messages: Message[]): Promise<{ content: Block[] }> {
  return { content: script[messages.filter((m) => m.role === 'assistant').length]! };
}

// Your tools.
const tools: Record<string, (args: any, signal: AbortSignal) => Promise<unknown>> = {
  pulse_query: async () => ({ resources: [{ id: 'vm-101', status: 'stuck' }] }),
  pulse_control: async ({ target }) => ({ ok: true, restarted: target }),
  pulse_read: async ({ target }) => ({ id: target, status: 'running' }),
};

const session = createSafetySession();
const loop = createToolLoop({
  session,
  classify: pulseClassifier,
  execute: (call: ToolCall, signal) => tools[call.name]!(call.args, signal),
  toolTimeoutMs: 30_000,
});

async function handleUserMessage(text: string): Promise<string> {
  const messages: Message[] = [{ role: 'user', content: text }];
  loop.startTurn();
  for (let step = 0; step < 10; step += 1) {
    const { content } = await callModel(messages);
    messages.push({ role: 'assistant', content });
    const calls = content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, args: b.input }] : []));
    if (calls.length === 0) {
      const answer = loop.finalAnswer();
      if (answer.allowed) return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      console.log(`final answer refused: ${answer.constraint}`);
      messages.push({ role: 'user', content: answer.constraint });
      continue;
    }
    const outcomes = await loop.runBatch(calls); // same order as calls
    for (const o of outcomes)
      console.log(`${o.id} ${o.name} (${o.kind}): ${o.status}${o.error ? ` ${o.error.error}` : ''}`);
    messages.push({
      role: 'user',
      content: outcomes.map((o) => ({
        type: 'tool_result',
        tool_use_id: o.id,
        content: JSON.stringify(o.status === 'ok' ? o.result : o.error),
        is_error: o.status !== 'ok',
      })),
    });
  }
  throw new Error('the model did not finish in 10 steps');
}

console.log(await handleUserMessage('vm-101 is stuck, restart it.'));
console.log(`session ends in ${session.state}`);
