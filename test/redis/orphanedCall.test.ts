import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  createEntryInterpreter,
  createPrometheusRegistry,
  createToolNamer,
  metricPointsOf,
  summariseEntries,
} from 'assistant-safety/insights';
import { createRedisGatewaySession } from 'assistant-safety/redis';
import { createGatewayPolicy } from '../../src/mcp/gatewayPolicy.js';
import { useTestRedis } from './useTestRedis.js';

/*
 * A lease that ran out while its holder was stopped is visible: gateway A claims a write and
 * stops renewing (its process is gone), and gateway B's next decision ends the write as an
 * unknown outcome recorded `orphanedBy` A's holder id, counted in B's stats and in the metrics.
 * Against a real redis-server.
 */

const env = useTestRedis();

const LEASE_MS = 60;

/** Whether every claim on the session has run out, by Redis's clock. */
async function allRunOut(sessionId: string): Promise<boolean> {
  const [seconds, micros] = await env.raw.time();
  const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  const leases = Object.values(await env.raw.hgetall(`assistant-safety:{${sessionId}}:c`));
  return leases.length > 0 && leases.every((v) => parseInt(v, 10) <= now);
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('an orphaned call on a Redis gateway session', () => {
  it("should be ended by the next gateway's decision, recorded, counted and measured with the stopped holder's id", async () => {
    const sessionId = `orphaned-${Date.now()}`;
    const options = {
      redis: { url: env.redis.url, streams: true, timeoutMs: 10_000 },
      sessionId,
      orphanAfterMs: LEASE_MS,
    };
    const a = createRedisGatewaySession(options);
    const b = createRedisGatewaySession({ ...options, holder: 'gateway-b' });
    // A's holder id by default: the host, the process and a random part.
    expect(a.holder.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
    expect(a.holder).toMatch(/:[0-9a-f]{6}$/);
    const logB: string[] = [];
    const policyA = createGatewayPolicy({ sharedSession: a, log: () => {} });
    const policyB = createGatewayPolicy({ sharedSession: b, log: (line) => logB.push(line) });
    await policyA.start();
    await policyB.start();

    expect(await policyA.decide({ id: 'a:0', kind: 'resolve', tool: 'find_vm' })).toBeNull();
    await policyA.settle({ callId: 'a:0', tool: 'find_vm', kind: 'resolve', ended: false }, { ok: true, value: {} });
    expect(await policyA.decide({ id: 'a:1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect((await env.raw.hget(`assistant-safety:{${sessionId}}:c`, 'a:1'))?.endsWith(`|${a.holder}`)).toBe(true);
    // A's process stops: nothing renews its claim on the write any more.
    const holderA = a.holder;
    await a.close();
    await until(() => allRunOut(sessionId));

    // B's next decision ends the orphaned write first (the read then verifies it).
    expect(await policyB.decide({ id: 'b:1', kind: 'read', tool: 'vm_status' })).toBeNull();
    const entries = (await b.store.readRecording(sessionId)).map((r) => r.entry);
    const end = entries.find((e) => e.call.type === 'endToolCall' && e.call.id === 'a:1')!;
    expect(end.call).toEqual({ type: 'endToolCall', id: 'a:1', ok: false, unknown: true, orphanedBy: holderA });
    expect(end.before).toBe('WRITING');
    expect(end.after).toBe('VERIFYING');
    expect(logB.join('\n')).toContain(`call a:1 was left in flight by a gateway that is gone (holder ${holderA})`);

    // Counted once, by the gateway that ended it; its claim is gone.
    expect(b.stats().orphaned).toBe(1);
    expect(b.stats().saved).toBeGreaterThan(0);
    expect(await env.raw.hexists(`assistant-safety:{${sessionId}}:c`, 'a:1')).toBe(0);
    expect(await b.orphans()).toEqual([]);
    await policyB.settle({ callId: 'b:1', tool: 'vm_status', kind: 'read', ended: false }, { ok: true, value: {} });
    expect(b.stats().orphaned).toBe(1);

    // The metrics (OpenTelemetry and /metrics read the same points) count it, by the write's tool.
    const interpreter = createEntryInterpreter();
    const namer = createToolNamer();
    const points = entries.flatMap((e) => metricPointsOf(interpreter.observe(e), namer));
    expect(points.filter((p) => p.metric === 'orphanedCalls')).toEqual([
      { metric: 'orphanedCalls', value: 1, attributes: { 'assistant_safety.tool.name': 'restart_vm' } },
    ]);
    const registry = createPrometheusRegistry();
    registry.add(points);
    expect(registry.render()).toContain(
      'assistant_safety_calls_orphaned_total{assistant_safety_tool_name="restart_vm"} 1',
    );
    // `assistant-safety stats` counts it by holder.
    expect(summariseEntries(entries).orphaned).toEqual({ [holderA]: 1 });
    await b.close();
  }, 30_000);
});
