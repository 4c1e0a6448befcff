import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';
import { cli, connect, envelopeOf, fixtureCommand, runsOf, tempDir } from './helpers.js';

/*
 * `mcp-gateway --redis URL --session ID` with `--targets bind` and with `--shadow`: the session
 * options apply to the shared session, so a target one gateway validated is validated for every
 * gateway on the session, and one never validated is blocked in all of them.
 */

const RULES = {
  tools: {
    get_status: { kind: 'read', targets: ['name'] },
    restart_service: { kind: 'write', targets: ['name'] },
  },
};

let redis: TestRedis;
let store: RedisSessionStore;

beforeAll(async () => {
  redis = await startTestRedis();
  store = createRedisSessionStore({ url: redis.url, timeoutMs: 20_000 });
});

afterAll(async () => {
  await store.close();
  await redis.stop();
});

/** A gateway process on the Redis session `session`, in front of its own fixture server. */
async function gatewayOn(session: string, flags: string[]) {
  const dir = tempDir();
  const rules = join(dir, 'rules.json');
  writeFileSync(rules, JSON.stringify(RULES));
  const gateway = await connect(
    cli([
      'mcp-gateway',
      '--redis',
      redis.url,
      '--session',
      session,
      '--rules',
      rules,
      ...flags,
      '--',
      ...fixtureCommand(dir),
    ]),
    dir,
  );
  /** The block reason of a call, or null when it ran. */
  const reasonOf = async (name: string, service: string) => {
    const result = (await gateway.client.callTool({ name, arguments: { name: service } })) as {
      isError?: boolean;
      content?: unknown;
    };
    return result.isError ? (envelopeOf(result).details?.reasonCode ?? 'error') : null;
  };
  const stop = async () => {
    await gateway.client.close();
    return gateway.exited;
  };
  return { ...gateway, dir, reasonOf, stop };
}

describe('mcp-gateway --redis with --targets bind and --shadow', () => {
  it('should bind writes to targets validated by any gateway on the session, and block an unvalidated one in both', async () => {
    const session = `bind-${Date.now()}`;
    const a = await gatewayOn(session, ['--targets', 'bind']);
    const b = await gatewayOn(session, ['--targets', 'bind']);
    // Validated in A only.
    expect(await a.reasonOf('get_status', 'web')).toBeNull();
    // B sees A's validation: the write to web runs in B.
    expect(await b.reasonOf('restart_service', 'web')).toBeNull();
    // db was never looked up: blocked in both gateways, and never reaches either server.
    expect(await b.reasonOf('get_status', 'web')).toBeNull();
    expect(await b.reasonOf('restart_service', 'db')).toBe('TARGET_NOT_VALIDATED');
    expect(await a.reasonOf('get_status', 'web')).toBeNull();
    expect(await a.reasonOf('restart_service', 'db')).toBe('TARGET_NOT_VALIDATED');
    expect(runsOf(a.dir).map((r) => r.tool)).toEqual(['get_status', 'get_status']);
    expect(runsOf(b.dir).map((r) => r.tool)).toEqual(['restart_service', 'get_status']);
    const saved = await store.get(session);
    expect(saved?.snapshot.context.validatedTargets).toContain('web');
    expect(saved?.snapshot.context.validatedTargets).not.toContain('db');
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
  }, 120_000);

  it('should run a would-be blocked write with --shadow and record the would-be block', async () => {
    const session = `shadow-${Date.now()}`;
    const a = await gatewayOn(session, ['--targets', 'bind', '--shadow']);
    const b = await gatewayOn(session, ['--targets', 'bind', '--shadow']);
    expect(await a.reasonOf('get_status', 'web')).toBeNull();
    // Unvalidated: in enforce mode a block; in shadow the write runs.
    expect(await b.reasonOf('restart_service', 'db')).toBeNull();
    expect(runsOf(b.dir).map((r) => r.tool)).toEqual(['restart_service']);
    const recording = await store.readRecording(session);
    const wouldBe = recording.filter((e) => JSON.stringify(e).includes('TARGET_NOT_VALIDATED'));
    expect(wouldBe.length).toBeGreaterThan(0);
    expect(JSON.stringify(wouldBe[0])).toContain('restart_service');
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
  }, 120_000);
});
