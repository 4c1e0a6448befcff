import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpGateway } from 'assistant-safety/mcp';
import {
  createRedisGatewaySession,
  createRedisSessionStore,
  DEFAULT_ORPHAN_AFTER_MS,
  type RedisSessionStore,
} from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';
import { cli, connect, envelopeOf, fixtureCommand, ROOT, tempDir, until, type Connected } from './helpers.js';

/*
 * A gateway whose session is kept in Redis (`mcp-gateway --redis URL --session ID`): a write cut
 * off by the gateway's own death (SIGKILL) or by the client's disconnect is not lost. The next
 * gateway on the same session holds the next write while the dead gateway's lease on the call
 * lives (WRITE_IN_FLIGHT), then ends the orphaned write as an unknown outcome: the session needs
 * verification (VERIFYING, UNVERIFIED_WRITE) until a read verifies it.
 */

const LEASE_MS = 4000;
let redis: TestRedis;
let store: RedisSessionStore;
let raw: Redis;

beforeAll(async () => {
  redis = await startTestRedis();
  store = createRedisSessionStore({ url: redis.url, timeoutMs: 20_000 });
  raw = new Redis(redis.url);
});

afterAll(async () => {
  raw.disconnect();
  await store.close();
  await redis.stop();
});

/** A gateway process on the Redis session `session`, in front of the fixture server. */
async function gatewayOn(session: string) {
  const dir = tempDir();
  const gateway = await connect(
    cli([
      'mcp-gateway',
      '--redis',
      redis.url,
      '--session',
      session,
      '--orphan-after-ms',
      String(LEASE_MS),
      '--',
      ...fixtureCommand(dir),
    ]),
    dir,
  );
  const call = (name: string, args: Record<string, unknown> = { name: 'web' }) =>
    gateway.client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; content: unknown[] }>;
  const reasonOf = async (name: string) => {
    const result = await call(name);
    return result.isError ? (envelopeOf(result).details?.reasonCode ?? 'error') : null;
  };
  return { ...gateway, dir, call, reasonOf };
}

/** Starts a write the server runs until it is cut off; resolves once the server runs it. */
async function startLongWrite(gateway: Connected) {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  void gateway.client
    .callTool({ name: 'slow_write', arguments: { ms: 600_000 } }, undefined, {
      onprogress: () => started(),
      timeout: 600_000,
    })
    .catch(() => undefined);
  await running;
}

const stateOf = async (session: string) => (await store.get(session))?.snapshot.state;

describe('a gateway on a Redis session, when a write is cut off', () => {
  it('should keep the write in flight when the gateway process dies, then need verification once it is orphaned', async () => {
    const session = `killed-${Date.now()}`;
    const first = await gatewayOn(session);
    expect(await first.reasonOf('get_status')).toBeNull();
    await startLongWrite(first);
    expect(await stateOf(session)).toBe('WRITING');
    const second = await gatewayOn(session);

    process.kill(first.transport.pid!, 'SIGKILL');
    await first.exited;
    process.kill(Number(readFileSync(join(first.dir, 'server.pid'), 'utf8')), 'SIGKILL');
    // Nothing was lost: the write the dead gateway began is still in flight in Redis.
    expect(await stateOf(session)).toBe('WRITING');
    // Its lease still lives: the write may still run (its server outlived the gateway).
    expect(await second.reasonOf('restart_service')).toBe('WRITE_IN_FLIGHT');

    // The lease runs out (the dead gateway renews it no more): the write is orphaned.
    const claims = `assistant-safety:{${session}}:c`;
    await until(async () => {
      const [seconds, micros] = await raw.time();
      const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const leases = Object.values(await raw.hgetall(claims)).map((v) => parseInt(v, 10));
      return leases.length > 0 && leases.every((expiry) => expiry <= now);
    }, 4 * LEASE_MS);
    expect(await second.reasonOf('restart_service')).toBe('UNVERIFIED_WRITE');
    expect(await stateOf(session)).toBe('VERIFYING');
    expect(await second.reasonOf('restart_service')).toBe('UNVERIFIED_WRITE');
    // A read that begins after it verifies it; then a write runs.
    expect(await second.reasonOf('get_status')).toBeNull();
    expect(await stateOf(session)).toBe('READING');
    expect(await second.reasonOf('restart_service')).toBeNull();
    expect(second.stderr()).toMatch(/left in flight by a gateway that is gone/);
    await second.client.close();
    await second.exited;
  }, 90_000);

  it('should need verification after the client disconnects mid-write', async () => {
    const session = `disconnected-${Date.now()}`;
    const first = await gatewayOn(session);
    expect(await first.reasonOf('get_status')).toBeNull();
    await startLongWrite(first);
    expect(await stateOf(session)).toBe('WRITING');
    await first.client.close();
    expect(await first.exited).toBe(0);
    // The gateway saved the cut-off write's end, an unknown outcome, before it exited.
    expect(await stateOf(session)).toBe('VERIFYING');
    expect(first.stderr()).toMatch(/1 call\(s\) in flight were ended with an unknown outcome/);

    const second = await gatewayOn(session);
    expect(await second.reasonOf('restart_service')).toBe('UNVERIFIED_WRITE');
    expect(await second.reasonOf('get_status')).toBeNull();
    expect(await second.reasonOf('restart_service')).toBeNull();
    await second.client.close();
    await second.exited;
  }, 90_000);

  it('should end a write whose gateway is gone as an unknown outcome when the next gateway starts', async () => {
    const session = `restarted-${Date.now()}`;
    /** A gateway in this process on the Redis session, in front of a server whose write never answers. */
    const gatewayOn = async () => {
      const server = new McpServer({ name: 'never', version: '1.0.0' });
      server.registerTool('get_status', { annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: 'text', text: 'running' }],
      }));
      server.registerTool('restart', { annotations: { readOnlyHint: false } }, () => new Promise<never>(() => {}));
      const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
      const sharedSession = createRedisGatewaySession({
        redis: { url: redis.url, timeoutMs: 20_000 },
        sessionId: session,
        orphanAfterMs: 300,
      });
      const gateway = createMcpGateway({ upstream, downstream, sharedSession });
      await gateway.start();
      const client = new Client({ name: 'restart-test', version: '1.0.0' });
      await client.connect(clientSide);
      return { gateway, client, sharedSession };
    };
    const first = await gatewayOn();
    await first.client.callTool({ name: 'get_status', arguments: {} });
    void first.client.callTool({ name: 'restart', arguments: {} }).catch(() => undefined);
    await until(async () => (await stateOf(session)) === 'WRITING');
    // The first gateway's process is gone: nothing renews its claim any more.
    await first.sharedSession.close();
    const claims = `assistant-safety:{${session}}:c`;
    await until(async () => {
      const [seconds, micros] = await raw.time();
      const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const leases = Object.values(await raw.hgetall(claims)).map((v) => parseInt(v, 10));
      return leases.length > 0 && leases.every((expiry) => expiry <= now);
    });

    const second = await gatewayOn();
    // Its start ended the orphaned write, before any call.
    expect(await stateOf(session)).toBe('VERIFYING');
    expect(second.gateway.session.state).toBe('VERIFYING');
    const blocked = (await second.client.callTool({ name: 'restart', arguments: {} })) as { content: unknown[] };
    expect(envelopeOf(blocked).details).toMatchObject({ reasonCode: 'UNVERIFIED_WRITE' });
    await second.client.close();
    await second.gateway.closed;
    await second.sharedSession.close();
  }, 60_000);

  it('should document the default lease the code uses', () => {
    const row = readFileSync(join(ROOT, 'docs', 'limits.md'), 'utf8')
      .split('\n')
      .find((line) => line.includes('`--orphan-after-ms`'));
    expect(row).toContain(`| ${DEFAULT_ORPHAN_AFTER_MS / 1000} s after its last claim renewal`);
  });
});
