import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createSafetySession, type SafetySession } from 'assistant-safety';
import { createMcpGateway, spawnMcpServer } from 'assistant-safety/mcp';
import { envelopeOf, fixtureCommand, tempDir, until } from './helpers.js';

/*
 * A session that outlives its gateway (the `session` option: one kept by the application, a
 * persisted one): a write cut off by the server's crash or the client's disconnect may have
 * acted, so the next gateway on the same session must not let the next write through unverified.
 */

async function gatewayOn(session: SafetySession, dir: string) {
  const [command, ...args] = fixtureCommand(dir);
  const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
  const gateway = createMcpGateway({ upstream, downstream: spawnMcpServer(command!, args), session });
  await gateway.start();
  const client = new Client({ name: 'crash-test', version: '1.0.0' });
  await client.connect(clientSide);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; content: unknown[] }>;
  /** Starts a write that runs until it is cut off; resolves once the server runs it. */
  const startLongWrite = async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const outcome = client
      .callTool({ name: 'slow_write', arguments: { ms: 600_000 } }, undefined, {
        onprogress: () => started(),
        timeout: 600_000,
      })
      .then(
        () => 'answered',
        (e: Error) => e.message,
      );
    await running;
    return { outcome };
  };
  return { gateway, client, call, startLongWrite };
}

describe('a session kept outside the gateway, when a write is cut off', () => {
  it('should need verification after the server crashes mid-write', async () => {
    const dir = tempDir();
    const session = createSafetySession();
    const first = await gatewayOn(session, dir);
    expect((await first.call('get_status', { name: 'web' })).isError).toBeFalsy();
    const { outcome } = await first.startLongWrite();
    process.kill(Number(readFileSync(join(dir, 'server.pid'), 'utf8')), 'SIGKILL');
    expect(await outcome).toMatch(/exited before answering/);
    expect(await first.gateway.closed).toMatchObject({ reason: 'server-closed', endedInFlight: 1 });
    expect(session.state).toBe('VERIFYING');

    const second = await gatewayOn(session, tempDir());
    expect(envelopeOf(await second.call('restart_service', { name: 'web' })).details).toMatchObject({
      reasonCode: 'UNVERIFIED_WRITE',
    });
    expect((await second.call('get_status', { name: 'web' })).isError).toBeFalsy();
    expect((await second.call('restart_service', { name: 'web' })).isError).toBeFalsy();
    await second.client.close();
  }, 60_000);

  it('should need verification after the client disconnects mid-write', async () => {
    const dir = tempDir();
    const session = createSafetySession();
    const first = await gatewayOn(session, dir);
    await first.call('get_status', { name: 'web' });
    void first.startLongWrite();
    await until(() => session.state === 'WRITING');
    await first.client.close();
    expect(await first.gateway.closed).toMatchObject({ reason: 'client-closed', endedInFlight: 1 });
    expect(session.state).toBe('VERIFYING');

    const second = await gatewayOn(session, tempDir());
    expect(envelopeOf(await second.call('restart_service', { name: 'web' })).details).toMatchObject({
      reasonCode: 'UNVERIFIED_WRITE',
    });
    await second.client.close();
  }, 60_000);
});
