import { createSafetySession, createToolLoop, type ToolCall } from 'assistant-safety';
import { classifyFromTools } from 'assistant-safety/classify';

// Ordinary tools. Say what each one does (as MCP annotations or a `kind`): anything unsaid is a write.
const tools = [
  { name: 'search_docs', kind: 'resolve', run: async () => ({ hits: ['users.md'] }) },
  { name: 'read_file', annotations: { readOnlyHint: true }, run: async () => ({ text: 'ada: admin' }) },
  { name: 'get_weather', annotations: { readOnlyHint: true }, run: async () => ({ celsius: 21 }) },
  { name: 'list_users', annotations: { readOnlyHint: true }, run: async () => ({ users: ['ada'] }) },
  { name: 'set_role', run: async () => ({ ok: true }) }, // declares nothing: a write
] as const;

const loop = createToolLoop({
  session: createSafetySession(),
  classify: classifyFromTools(tools), // required: there is no silent default
  execute: (call: ToolCall) => tools.find((t) => t.name === call.name)!.run(),
});

const turn = async (...calls: [string, string][]) =>
  (await loop.runBatch(calls.map(([id, name]) => ({ id, name, args: {} })))).map((o) => `${o.name}: ${o.status}`);

console.log(await turn(['1', 'set_role'])); // [ 'set_role: blocked' ]: no target yet
console.log(await turn(['2', 'search_docs'], ['3', 'list_users'])); // discovery: RESOLVING -> READING
console.log(await turn(['4', 'set_role'])); // the write runs: -> VERIFYING
console.log(loop.finalAnswer().allowed); // false: verify before claiming
console.log(await turn(['5', 'list_users'])); // a read begun after the write verifies it
console.log(loop.finalAnswer().allowed, loop.session.state); // true READING
