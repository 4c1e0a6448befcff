import { describe, expect, it } from 'vitest';
import { createRedisGatewaySession } from 'assistant-safety/redis';
import { createGatewayPolicy } from '../../src/mcp/gatewayPolicy.js';
import { useTestRedis } from './useTestRedis.js';

/*
 * A claim written by an older gateway (the lease's expiry alone, no holder) still reads: once it
 * has run out, the call is orphaned and ended as an unknown outcome with no `orphanedBy`, and the
 * log says the holder is unknown. Against a real redis-server.
 */

const env = useTestRedis();

describe('a claim in the older format', () => {
  it('should be orphaned once its expiry has passed, its holder unknown', async () => {
    const sessionId = `old-claim-${Date.now()}`;
    const claims = `assistant-safety:{${sessionId}}:c`;
    const options = {
      redis: { url: env.redis.url, streams: true, timeoutMs: 10_000 },
      sessionId,
      orphanAfterMs: 60_000,
    };
    const a = createRedisGatewaySession({ ...options, holder: 'gateway-a' });
    const policyA = createGatewayPolicy({ sharedSession: a, log: () => {} });
    await policyA.start();
    expect(await policyA.decide({ id: 'a:0', kind: 'resolve', tool: 'find_vm' })).toBeNull();
    await policyA.settle({ callId: 'a:0', tool: 'find_vm', kind: 'resolve', ended: false }, { ok: true, value: {} });
    expect(await policyA.decide({ id: 'a:1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    await a.close();
    // An older gateway's claim: the expiry alone. A live one (in an hour) is no orphan yet.
    const [seconds] = await env.raw.time();
    await env.raw.hset(claims, 'a:1', String(Number(seconds) * 1000 + 3_600_000));
    const b = createRedisGatewaySession({ ...options, holder: 'gateway-b' });
    expect(await b.orphans()).toEqual([]);
    await env.raw.hset(claims, 'a:1', String(Number(seconds) * 1000 - 1000));
    expect(await b.orphans()).toEqual([{ id: 'a:1' }]);

    const log: string[] = [];
    const policyB = createGatewayPolicy({ sharedSession: b, log: (line) => log.push(line) });
    await policyB.start();
    const entries = (await b.store.readRecording(sessionId)).map((r) => r.entry);
    const end = entries.find((e) => e.call.type === 'endToolCall' && e.call.id === 'a:1')!;
    expect(end.call).toEqual({ type: 'endToolCall', id: 'a:1', ok: false, unknown: true });
    expect(log.join('\n')).toContain('call a:1 was left in flight by a gateway that is gone (holder unknown)');
    expect(b.stats().orphaned).toBe(1);
    await b.close();
  }, 30_000);
});
