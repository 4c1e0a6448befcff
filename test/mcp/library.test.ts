import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMemoryRecorder, createSafetySession, replayRecording } from 'assistant-safety';
import { createMcpGateway, type McpGatewayOptions } from 'assistant-safety/mcp';

/** A server, the gateway and a client in one process, over the SDK's in-memory transports. */
async function inProcess(options: Partial<McpGatewayOptions> = {}) {
  const server = new McpServer({ name: 'in-process', version: '1.0.0' });
  const ran: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.registerTool('list_things', { annotations: { readOnlyHint: true } }, async () => {
    ran.push('list_things');
    return { content: [{ type: 'text', text: 'things' }] };
  });
  server.registerTool('change_thing', {}, async () => {
    ran.push('change_thing');
    return { content: [{ type: 'text', text: 'changed' }] };
  });
  server.registerTool('hold', { annotations: { readOnlyHint: true } }, async () => {
    ran.push('hold');
    await held;
    return { content: [{ type: 'text', text: 'released' }] };
  });
  const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
  const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const recorder = createMemoryRecorder();
  const gateway = createMcpGateway({ upstream, downstream, session: createSafetySession({ recorder }), ...options });
  await gateway.start();
  const client = new Client({ name: 'in-process-client', version: '1.0.0' });
  await client.connect(clientSide);
  return { server, client, gateway, ran, recorder, release };
}

describe('createMcpGateway as a library', () => {
  it("should learn the tools' declarations from the server and explain each decision", async () => {
    const { client, gateway, ran } = await inProcess();
    const first = await client.callTool({ name: 'list_things' });
    expect(first.isError).toBeFalsy();
    expect(gateway.explain('list_things')).toMatchObject({ kind: 'read', rule: 'annotations' });
    expect(gateway.explain('change_thing')).toMatchObject({ kind: 'write', rule: 'default' });
    expect([...gateway.tools.keys()]).toEqual(['list_things', 'change_thing', 'hold']);
    expect(ran).toEqual(['list_things']);
    await client.close();
  });

  it('should list the tools again after the server says its list changed', async () => {
    const { server, client, gateway } = await inProcess();
    await client.callTool({ name: 'list_things' });
    server.registerTool('added_later', { annotations: { readOnlyHint: true } }, async () => ({
      content: [{ type: 'text', text: 'late' }],
    }));
    const late = await client.callTool({ name: 'added_later' });
    expect(late.isError).toBeFalsy();
    expect(gateway.explain('added_later')).toMatchObject({ kind: 'read', rule: 'annotations' });
    await client.close();
  });

  it('should let rules win over the annotations, and a classify option replace both', async () => {
    const ruled = await inProcess({ rules: { tools: { change_thing: 'read' } } });
    expect((await ruled.client.callTool({ name: 'change_thing' })).isError).toBeFalsy();
    expect(ruled.ran).toEqual(['change_thing']);
    const custom = await inProcess({ classify: (name) => (name === 'list_things' ? 'write' : 'read') });
    const blocked = await custom.client.callTool({ name: 'list_things' });
    expect(blocked.isError).toBe(true);
    expect(custom.ran).toEqual([]);
    expect(custom.gateway.explain('list_things')).toMatchObject({ kind: 'write', rule: 'classify' });
    await Promise.all([ruled.client.close(), custom.client.close()]);
  });

  it('should end the calls in flight as failed when it is closed', async () => {
    const { client, gateway, recorder, release } = await inProcess();
    const pending = client.callTool({ name: 'hold' }).catch((e: Error) => e);
    while (Object.keys(gateway.session.context.calls).length === 0) {
      await new Promise((r) => setTimeout(r, 5));
    }
    await gateway.close();
    expect(await gateway.closed).toEqual({ reason: 'closed', endedInFlight: 1 });
    release();
    expect(await pending).toBeInstanceOf(Error);
    const end = recorder.entries.find((e) => e.call.type === 'endToolCall');
    expect(end?.call).toMatchObject({ ok: false });
    expect(replayRecording([...recorder.entries]).divergences).toEqual([]);
  });
});
