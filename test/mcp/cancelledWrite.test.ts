import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createSafetySession, type SafetySession } from 'assistant-safety';
import { createMcpGateway } from 'assistant-safety/mcp';

/*
 * A write the client cancels while the server keeps running it (the SDK's client cancels by
 * itself when its request timeout runs out; most handlers ignore the abort). The gateway keeps
 * the write in flight until the server answers or the grace period ends, then ends it with an
 * unknown outcome, which must be verified. The server logs the start and end of every write:
 * two writes never overlap, whether the next write has a new request id or the cancelled one.
 */

const GRACE_MS = 1500;
const WRITE_MS = 600;

/** A client that speaks raw JSON-RPC, so the test picks every request id. */
async function rawClient(upstream: InMemoryTransport) {
  const answers = new Map<string | number, (m: JSONRPCMessage) => void>();
  upstream.onmessage = (m) => {
    if ('id' in m && !('method' in m)) answers.get(m.id!)?.(m);
  };
  await upstream.start();
  const request = (id: number, method: string, params?: Record<string, unknown>) =>
    new Promise<JSONRPCMessage & { result?: Record<string, unknown>; error?: { message: string } }>((resolve) => {
      answers.set(id, resolve as (m: JSONRPCMessage) => void);
      void upstream.send({ jsonrpc: '2.0', id, method, ...(params && { params }) });
    });
  const notify = (method: string, params?: Record<string, unknown>) =>
    upstream.send({ jsonrpc: '2.0', method, ...(params && { params }) });
  const call = (id: number, name: string, args: Record<string, unknown> = {}) =>
    request(id, 'tools/call', { name, arguments: args });
  await request(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  await notify('notifications/initialized');
  return { call, notify, request };
}

const reasonOf = (answer: { result?: Record<string, unknown> }) =>
  (answer.result?.structuredContent as { details?: { reasonCode?: string } } | undefined)?.details?.reasonCode;

/** Resolves once the session is in `state` (or already is). */
const reaches = (session: SafetySession, state: string) =>
  new Promise<void>((resolve) => {
    if (session.state === state) return resolve();
    const stop = session.subscribe((s) => {
      if (s.state === state) {
        stop();
        resolve();
      }
    });
  });

function stubbornServer(events: string[], started: () => void) {
  const server = new McpServer({ name: 'stubborn', version: '1.0.0' });
  server.registerTool('get_status', { annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  server.registerTool(
    'save',
    { inputSchema: { ms: z.number().int() }, annotations: { readOnlyHint: false } },
    async ({ ms }) => {
      events.push('start');
      started();
      await new Promise((resolve) => setTimeout(resolve, ms)); // the abort signal is never looked at
      events.push('end');
      return { content: [{ type: 'text', text: 'saved' }] };
    },
  );
  return server;
}

/** No two writes overlap: every start is followed by its end before the next start. */
function expectNoOverlap(events: string[]) {
  let running = 0;
  for (const e of events) {
    running += e === 'start' ? 1 : -1;
    expect(running).toBeLessThanOrEqual(1);
  }
}

describe('the gateway and a cancelled write whose handler keeps running', () => {
  it('should hold the next write WRITE_IN_FLIGHT for the grace period, then require verification, never overlapping two writes', async () => {
    const events: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
    const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
    await stubbornServer(events, started).connect(serverSide);
    const session = createSafetySession();
    const logs: string[] = [];
    const gateway = createMcpGateway({
      upstream,
      downstream,
      session,
      cancelGraceMs: GRACE_MS,
      log: (l) => logs.push(l),
    });
    await gateway.start();
    const client = await rawClient(clientSide);

    expect((await client.call(1, 'get_status')).result?.isError).toBeFalsy();
    void client.call(2, 'save', { ms: WRITE_MS }); // never answered: the client cancels it
    await running;
    await client.notify('notifications/cancelled', { requestId: 2, reason: 'timed out' });

    // The write still runs on the server: a new id and the cancelled id alike are held.
    expect(reasonOf(await client.call(3, 'save', { ms: 10 }))).toBe('WRITE_IN_FLIGHT');
    expect(reasonOf(await client.call(2, 'save', { ms: 10 }))).toBe('WRITE_IN_FLIGHT');
    expect(session.state).toBe('WRITING');

    // The grace period ends: the outcome is unknown, so the write must be verified.
    await reaches(session, 'VERIFYING');
    expect(logs.some((l) => l.includes('its outcome is unknown'))).toBe(true);
    expect(reasonOf(await client.call(4, 'save', { ms: 10 }))).toBe('UNVERIFIED_WRITE');
    // The cancelled id is never reused, even once the call is given up on.
    expect(reasonOf(await client.call(5, 'get_status'))).toBeUndefined();
    const reused = await client.call(2, 'save', { ms: 10 });
    expect(reused.error?.message).toMatch(/cancelled call the server may still answer/);
    const next = await client.call(6, 'save', { ms: 10 });
    expect(next.result?.isError).toBeFalsy();

    expect(events).toEqual(['start', 'end', 'start', 'end']);
    expectNoOverlap(events);
    await gateway.close();
  });

  it("should end the held write with the server's own answer when the server sends one", async () => {
    // A server that answers even a cancelled call (the SDK's does not; others do).
    const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
    const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
    let answerSave!: () => void;
    serverSide.onmessage = (m) => {
      if (!('method' in m) || !('id' in m)) return;
      const reply = (result: Record<string, unknown>) => void serverSide.send({ jsonrpc: '2.0', id: m.id, result });
      if (m.method === 'initialize')
        reply({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } });
      else if (m.method === 'tools/list')
        reply({
          tools: [
            { name: 'get_status', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
            { name: 'save', inputSchema: { type: 'object' } },
          ],
        });
      else if (m.method === 'tools/call' && (m.params as { name: string }).name === 'save')
        answerSave = () => reply({ content: [{ type: 'text', text: 'saved' }] });
      else reply({ content: [{ type: 'text', text: 'ok' }] });
    };
    await serverSide.start();
    const session = createSafetySession();
    const gateway = createMcpGateway({ upstream, downstream, session, cancelGraceMs: 60_000 });
    await gateway.start();
    const client = await rawClient(clientSide);
    await client.call(1, 'get_status');
    void client.call(2, 'save');
    await reaches(session, 'WRITING');
    await client.notify('notifications/cancelled', { requestId: 2 });
    expect(reasonOf(await client.call(3, 'save'))).toBe('WRITE_IN_FLIGHT');
    answerSave();
    // The write succeeded after all: it is verified like any write, long before the grace period ends.
    await reaches(session, 'VERIFYING');
    expect(reasonOf(await client.call(4, 'save'))).toBe('UNVERIFIED_WRITE');
    await gateway.close();
  });
});
