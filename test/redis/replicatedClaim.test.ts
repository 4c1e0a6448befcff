import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpGateway } from 'assistant-safety/mcp';
import {
  createRedisGatewaySession,
  createRedisSessionStore,
  SessionStoreUnavailableError,
  type RedisGatewaySession,
  type RedisSessionStoreOptions,
} from 'assistant-safety/redis';
import { claimsKey } from '../../src/redis/keys.js';
import { startTestCluster, type TestCluster } from './redisCluster.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * A gateway's claim on a call under durability 'replicated'. Before, the claim was written on the
 * primary alone while the decision waited for a replica: a failover that lost the claim, with the
 * gateway dead too, left the (replicated) session holding the call in flight with no claim, so no
 * gateway ever reported it orphaned, and the session's next write stayed WRITE_IN_FLIGHT until the
 * session expired. Now the claim resolves only once a replica acknowledged it (WAIT 1 on the node
 * that owns the claims key), and one no replica acknowledges fails clearly: the call does not run.
 */

const PREFIX = 'claim:';
let cluster: TestCluster; // 3 primaries, 1 replica each
let single: TestRedis; // no replica
let raw: Cluster;
const sessions: RedisGatewaySession[] = [];

beforeAll(async () => {
  [cluster, single] = await Promise.all([startTestCluster({ primaries: 3, replicas: 1 }), startTestRedis()]);
  await cluster.waitHealthy();
  raw = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
  await new Promise((resolve) => raw.once('ready', resolve));
}, 120_000);
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  raw?.disconnect();
  await Promise.all([cluster?.stop(), single?.stop()]);
}, 30_000);

const gatewaySession = (redis: RedisSessionStoreOptions, sessionId: string) => {
  const s = createRedisGatewaySession({ redis: { keyPrefix: PREFIX, ...redis }, sessionId });
  sessions.push(s);
  return s;
};

/** The ports of the primary that owns a session's claims key, and of its replica. */
async function nodesOf(session: string): Promise<{ primary: number; replica: number }> {
  const slot = (await raw.cluster('KEYSLOT', claimsKey(PREFIX, session))) as number;
  // From CLUSTER NODES (CLUSTER SLOTS leaves out a replica that has copied nothing yet).
  const lines = (await cluster.cli(cluster.nodes[0]!.port, 'CLUSTER', 'NODES')).trim().split('\n');
  const fields = lines.map((l) => l.split(' '));
  const owner = fields.find((f) =>
    f.slice(8).some((r) => {
      const [a, b = a] = r.split('-').map(Number);
      return slot >= a! && slot <= b!;
    }),
  )!;
  const replicaOf = fields.find((f) => f[3] === owner[0])!;
  const port = (f: string[]) => Number(f[1]!.split(':')[1]!.split('@')[0]);
  const [primary, replica] = [port(owner), port(replicaOf)];
  return { primary: primary!, replica: replica! };
}

/** Runs `fn` with the replica frozen (up, connected, acknowledging nothing), then thaws it. */
async function frozen<T>(replica: number, fn: () => Promise<T>): Promise<T> {
  cluster.signal(replica, 'SIGSTOP');
  try {
    return await fn();
  } finally {
    cluster.signal(replica, 'SIGCONT');
    await cluster.waitHealthy();
  }
}

describe("a gateway's claim under durability 'replicated'", () => {
  it('should be on the replica when claim resolves', async () => {
    const session = 'on-replica';
    const { replica } = await nodesOf(session);
    const s = gatewaySession({ cluster: cluster.urls, durability: 'replicated' }, session);
    await s.claim('c1');
    // Read at once, with no wait: the claim resolved after WAIT 1 said the replica had it.
    const onReplica = new Redis(replica, '127.0.0.1');
    try {
      await onReplica.readonly();
      expect(await onReplica.info('replication')).toMatch(/^role:slave/m);
      expect(await onReplica.hget(claimsKey(PREFIX, session), 'c1')).toMatch(new RegExp(`^\\d+\\|${s.holder}$`));
    } finally {
      onReplica.disconnect();
    }
    await s.release('c1', true);
  }, 30_000);

  it('should fail clearly when the replica does not acknowledge it, where durability primary claims', async () => {
    const session = 'frozen';
    const { replica } = await nodesOf(session);
    const s = gatewaySession({ cluster: cluster.urls, durability: 'replicated', timeoutMs: 1000 }, session);
    const plain = gatewaySession({ cluster: cluster.urls, timeoutMs: 1000 }, session);
    await s.claim('warm'); // the connection and the slot map are ready
    await frozen(replica, async () => {
      const t0 = performance.now();
      const claim = s.claim('c2');
      await expect(claim).rejects.toBeInstanceOf(SessionStoreUnavailableError);
      await expect(claim).rejects.toThrow(
        `session "${session}": claimed call c2 on the primary, but no replica acknowledged the claim before the deadline`,
      );
      expect(performance.now() - t0).toBeLessThan(1000 + 500);
      // Durability primary does not wait for a replica.
      await plain.claim('c3');
    });
  }, 60_000);

  it('should fail clearly on one server with no replica', async () => {
    const s = gatewaySession({ url: single.url, durability: 'replicated', timeoutMs: 600 }, 'no-replica');
    await expect(s.claim('c1')).rejects.toThrow(
      /claimed call c1 on the primary, but no replica acknowledged the claim/,
    );
    await gatewaySession({ url: single.url }, 'no-replica').claim('c2');
  }, 30_000);

  it('should keep the call from reaching the server when the claim is not acknowledged', async () => {
    const session = 'gateway';
    const { replica } = await nodesOf(session);
    const redis: RedisSessionStoreOptions = {
      cluster: cluster.urls,
      keyPrefix: PREFIX,
      durability: 'replicated',
      timeoutMs: 1000,
    };
    const runs: string[] = [];
    const server = new McpServer({ name: 'counting', version: '1.0.0' });
    server.registerTool('get_status', { annotations: { readOnlyHint: true } }, () => {
      runs.push('get_status');
      return { content: [{ type: 'text', text: 'running' }] };
    });
    server.registerTool('restart', { annotations: { readOnlyHint: false } }, () => {
      runs.push('restart');
      return { content: [{ type: 'text', text: 'restarted' }] };
    });
    const [serverSide, downstream] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const [upstream, clientSide] = InMemoryTransport.createLinkedPair();
    const sharedSession = gatewaySession(redis, session);
    const gateway = createMcpGateway({ upstream, downstream, sharedSession, log: () => undefined });
    await gateway.start();
    const client = new Client({ name: 'claim-test', version: '1.0.0' });
    await client.connect(clientSide);
    const store = createRedisSessionStore({ cluster: cluster.urls, keyPrefix: PREFIX });
    try {
      await client.callTool({ name: 'get_status', arguments: {} });
      expect(runs).toEqual(['get_status']);
      const refused = await frozen(replica, () =>
        client.callTool({ name: 'restart', arguments: {} }).then(
          () => 'ran',
          (e: Error) => e.message,
        ),
      );
      expect(refused).toContain('the session could not be saved, so restart did not run');
      expect(refused).toContain('no replica acknowledged the claim before the deadline');
      expect(runs).toEqual(['get_status']);
      // The session never began the call (the claim failed before the decision): nothing in flight.
      const stored = await store.get(session);
      expect(stored?.snapshot.context.calls).toEqual({});
      // The replica back, the gateway goes on.
      await client.callTool({ name: 'restart', arguments: {} });
      expect(runs).toEqual(['get_status', 'restart']);
    } finally {
      await client.close();
      await gateway.closed;
      await store.close();
    }
  }, 60_000);
});
