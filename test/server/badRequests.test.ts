import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ServerMessage } from '../../src/live/protocol.js';
import { startTestServer } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const headers = () => ({ 'x-assistant-safety-token': server.token });

function socket(): Promise<{ ws: WebSocket; next: () => Promise<ServerMessage> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/live?token=${server.token}`);
    const queue: ServerMessage[] = [];
    const waiting: ((m: ServerMessage) => void)[] = [];
    ws.on('message', (data) => {
      const m = ServerMessage.parse(JSON.parse(String(data)));
      const w = waiting.shift();
      if (w) w(m);
      else queue.push(m);
    });
    ws.on('open', () =>
      resolve({
        ws,
        next: () => new Promise((r) => (queue.length ? r(queue.shift()!) : waiting.push(r))),
      }),
    );
    ws.on('error', reject);
  });
}

describe('bad requests', () => {
  it('should answer a write method with 405 and an unknown API with 404', async () => {
    const post = await fetch(`${server.origin}/api/recordings`, { method: 'POST', headers: headers(), body: 'x' });
    expect(post.status).toBe(405);
    expect((await fetch(`${server.origin}/api/nothing`, { headers: headers() })).status).toBe(404);
    expect((await fetch(`${server.origin}/nothing.js`, { headers: headers() })).status).toBe(404);
  });

  it('should answer malformed live messages with an error and keep the socket and the hub working', async () => {
    const { ws, next } = await socket();
    ws.send('not json');
    expect(await next()).toMatchObject({ type: 'error', message: 'messages are JSON text' });
    ws.send(JSON.stringify({ type: 'entries', from: 0, entries: [] }));
    expect(await next()).toMatchObject({ type: 'error', message: 'only an agent sends entries' });
    ws.send(JSON.stringify({ type: 'hello', role: 'agent', agentId: 'a1' }));
    expect(await next()).toEqual({ type: 'ack', next: 0 });
    ws.send(JSON.stringify({ type: 'entries', from: 0, entries: [{ v: 1, session: 'x' }] }));
    const error = await next();
    expect(error.type).toBe('error');
    expect((error as { message: string }).message).toMatch(/^unexpected message: /);
    expect(server.hub.list()).toEqual([]);
    ws.close();
  });

  it('should drop a live message bigger than the limit instead of buffering it', async () => {
    const { ws } = await socket();
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send('x'.repeat(9 * 1024 * 1024));
    expect(await closed).toBe(1009); // message too big
  });
});
