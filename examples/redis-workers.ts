import { parseArgs } from 'node:util';
import { pulseClassifier } from 'assistant-safety';
import { createRedisSessionStore, type RedisSessionStore } from 'assistant-safety/redis';

/*
 * One agent worker sharing its sessions with others through Redis. Start two
 * (or more) in separate terminals: each handles turns of the same
 * conversation, as workers behind a queue would, and the gate holds across
 * all of them. The Redis page walks through it with the app following along.
 *
 *   redis-server --port 6379 --save '' --appendonly no
 *   npx assistant-safety serve --redis redis://127.0.0.1:6379
 *   node --import tsx redis-workers.ts --name A
 *   node --import tsx redis-workers.ts --name B
 *
 * --redis defaults to $REDIS_URL, else redis://127.0.0.1:6379.
 */

const { values } = parseArgs({
  options: {
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    session: { type: 'string', default: 'conversation-1' },
    name: { type: 'string', default: `worker-${process.pid}` },
    cycles: { type: 'string', default: '5' },
    'step-ms': { type: 'string', default: '400' },
    'key-prefix': { type: 'string', default: 'assistant-safety:' },
  },
});
const sessionId = values.session;
const stepMs = Number(values['step-ms']);
const pause = () => new Promise((r) => setTimeout(r, stepMs * (0.5 + Math.random())));

// Fake infrastructure: one VM the agent keeps finding stuck and restarting.
const tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
  pulse_query: async () => ({ resources: [{ id: 'vm-101', status: 'stuck' }] }),
  pulse_control: async () => {
    await pause(); // the restart takes a while: the other worker's write is blocked meanwhile
    return { ok: true };
  },
  pulse_get_resource: async () => ({ id: 'vm-101', status: 'running' }),
};

const store: RedisSessionStore = createRedisSessionStore({
  url: values.redis,
  keyPrefix: values['key-prefix'],
  streams: true, // the recording goes to a Redis Stream: `serve --redis` shows it, `replay --redis` replays it
  worker: values.name,
  timeoutMs: 2000,
});

let n = 0;
/** One tool call through the shared session: begin (decide), run the tool, end. */
async function call(name: string, args: Record<string, unknown>): Promise<unknown> {
  const id = `${values.name}-${++n}`;
  const kind = pulseClassifier(name, args);
  const blocked = await store.withSession(sessionId, (s) => s.beginToolCall({ id, kind, tool: name }));
  if (blocked) {
    console.log(`${values.name}: ${name} blocked: ${blocked.reasonCode}`);
    return blocked.toJSON(); // what the model would get back
  }
  let ok = false;
  try {
    const result = await tools[name]!(args);
    ok = true;
    return result;
  } finally {
    const state = await store.withSession(sessionId, (s) => {
      s.endToolCall({ id, ok });
      if (s.state === 'VERIFYING' && s.readAfterWrite) s.completeVerification();
      return s.state;
    });
    console.log(`${values.name}: ${name} ${ok ? 'ok' : 'failed'} -> ${state}`);
  }
}

try {
  for (let cycle = 0; cycle < Number(values.cycles); cycle++) {
    await call('pulse_query', { query: 'vm-101' }); // discovery: a validated target
    await pause();
    await call('pulse_control', { action: 'restart', id: 'vm-101' }); // the write
    await pause();
    await call('pulse_get_resource', { id: 'vm-101' }); // the read that verifies it
    await pause();
  }
  const saved = await store.get(sessionId);
  console.log(`${values.name}: done; the shared session is ${saved?.snapshot.state} at version ${saved?.version}`);
} finally {
  await store.close();
}
