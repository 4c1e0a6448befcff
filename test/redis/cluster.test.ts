import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisSessionStore, SessionStoreUnavailableError, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestCluster, type TestCluster } from './redisCluster.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * The store on a real Redis Cluster (3 primaries, 3 replicas): options, one slot per session,
 * `list` across every primary, and what `durability: 'replicated'` confirms and refuses.
 */

let cluster: TestCluster;
let single: TestRedis;
const stores: RedisSessionStore[] = [];
const make = (o: Parameters<typeof createRedisSessionStore>[0]) => {
  const s = createRedisSessionStore(o);
  stores.push(s);
  return s;
};

beforeAll(async () => {
  [cluster, single] = await Promise.all([startTestCluster(), startTestRedis()]);
}, 60_000);

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await Promise.all([cluster?.stop(), single?.stop()]);
}, 30_000);

describe('options', () => {
  it('should take exactly one of url and cluster, naming the field', () => {
    expect(() => createRedisSessionStore({})).toThrow(/options\.url: expected exactly one of url .* got neither/);
    expect(() => createRedisSessionStore({ url: single.url, cluster: cluster.urls })).toThrow(
      /options\.cluster: expected exactly one of url .* got both/,
    );
    expect(() => createRedisSessionStore({ cluster: [] })).toThrow(/options\.cluster: expected at least one node URL/);
    expect(() => createRedisSessionStore({ cluster: ['http://x:1'] })).toThrow(/options\.cluster\.0: expected a redis/);
    expect(() => createRedisSessionStore({ cluster: ['redis://x:1/3'] })).toThrow(
      /options\.cluster\.0: a Redis Cluster has only database 0/,
    );
    expect(() => createRedisSessionStore({ url: single.url, durability: 'quorum' as never })).toThrow(
      /options\.durability/,
    );
  });
});

describe('a store on a cluster', () => {
  it("should keep each session's keys in one slot, and refuse an id that would not", async () => {
    const store = make({ cluster: cluster.urls, keyPrefix: 'slot:', streams: true });
    const node = new Redis(cluster.urls[0]!);
    try {
      for (const id of ['a', 'conversation-42', 'x{y', 'ü:{}', 'a}b']) {
        const slots = await Promise.all(
          [`slot:{${id}}:s`, `slot:{${id}}:x`, `slot:{${id}}:c`].map((k) => node.cluster('KEYSLOT', k)),
        );
        expect(new Set(slots).size, id).toBe(1);
        await store.withSession(id, (s) => s.beginToolCall({ id: 'r', kind: 'read', tool: 'get' }));
        expect((await store.readRecording(id)).length, id).toBeGreaterThan(0);
      }
      await expect(store.withSession('}x', () => null)).rejects.toThrow(/different cluster slots/);
    } finally {
      node.disconnect();
    }
  });

  it('should answer the first call of a fresh store within its default deadline, every time', async () => {
    // The cluster's own ready check used to race the node connections it had just opened and, on
    // losing, reconnect everything with a growing delay: a first call failed one time in three.
    for (let i = 0; i < 6; i++) {
      const store = make({ cluster: [cluster.urls[i % cluster.urls.length]!], keyPrefix: `first${i}:` });
      await expect(store.withSession(`s${i}`, (s) => s.state)).resolves.toBe('RESOLVING');
    }
  });

  it('should list the sessions of every primary', async () => {
    const store = make({ cluster: cluster.urls, keyPrefix: 'list:' });
    const ids = Array.from({ length: 30 }, (_, i) => `l${i}`);
    for (const id of ids) await store.withSession(id, (s) => s.targetEstablished());
    const listed = await store.list();
    expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
    // They really are spread: more than one primary holds some.
    const holders = new Set<number>();
    for (const port of await cluster.primaries()) {
      if (Number(await cluster.cli(port, 'DBSIZE')) > 0) holders.add(port);
    }
    expect(holders.size).toBeGreaterThan(1);
    expect(await store.list({ limit: 7 })).toHaveLength(7);
  });
});

describe("durability 'replicated'", () => {
  it('should confirm a save once a replica has it', async () => {
    const store = make({ cluster: cluster.urls, keyPrefix: 'rep:', durability: 'replicated' });
    await store.withSession('r', (s) => s.beginToolCall({ id: 'f', kind: 'resolve', tool: 'find' }));
    // Read the session's hash from the replica of its primary.
    const slot = Number(await cluster.cli(cluster.nodes[0]!.port, 'CLUSTER', 'KEYSLOT', 'rep:{r}:s'));
    const shards = (await cluster.cli(cluster.nodes[0]!.port, 'CLUSTER', 'NODES')).trim().split('\n');
    const primary = shards.find((l) =>
      l
        .split(' ')
        .slice(8)
        .some((r) => {
          const [a, b = a] = r.split('-').map(Number);
          return slot >= a! && slot <= b!;
        }),
    )!;
    const replica = shards.find((l) => l.split(' ')[3] === primary.split(' ')[0])!;
    const port = Number(replica.split(' ')[1]!.split(':')[1]!.split('@')[0]);
    const replicaClient = new Redis(port, '127.0.0.1');
    try {
      await replicaClient.readonly();
      const data = await replicaClient.hget('rep:{r}:s', 'data');
      expect(JSON.parse(data!).state).toBe('RESOLVING');
    } finally {
      replicaClient.disconnect();
    }
  });

  it('should refuse a save no replica acknowledges, and the next decision sees what Redis holds', async () => {
    // One server and no replica: the primary takes every save, no replica ever acknowledges one.
    const store = make({ url: single.url, keyPrefix: 'norep:', durability: 'replicated', timeoutMs: 1000 });
    // Its script cache empty (a fresh server, or a replica just promoted): the save script is
    // refused (NOSCRIPT) and the WAIT sent with it takes the time given. Before, the script was then
    // sent again with as long a WAIT, the deadline came first, and the error said Redis was "away or
    // too slow" though it answered; now no replica having acknowledged, nothing is saved, and the
    // error says why.
    const first = store.withSession('fresh', (s) => s.beginToolCall({ id: 'f0', kind: 'resolve', tool: 'find' }));
    await expect(first).rejects.toThrow(/no replica acknowledged .*so the script was not run/);
    expect(await make({ url: single.url, keyPrefix: 'norep:' }).get('fresh')).toBeUndefined();
    // The script cached (a save of durability 'primary'): the save runs, and no replica acknowledges it.
    await make({ url: single.url, keyPrefix: 'warm:' }).withSession('w', () => undefined);
    const t0 = performance.now();
    const begin = store.withSession('n', (s) => s.beginToolCall({ id: 'f1', kind: 'resolve', tool: 'find' }));
    await expect(begin).rejects.toBeInstanceOf(SessionStoreUnavailableError);
    await expect(begin).rejects.toThrow('saved on the primary, but no replica acknowledged it before the deadline');
    expect(performance.now() - t0).toBeLessThan(1000 + 500);
    // The primary kept the unconfirmed save: the next decision (here by a store of durability
    // 'primary') loads it, the call begun and still in flight; its caller ends it as failed.
    const plain = make({ url: single.url, keyPrefix: 'norep:' });
    const stored = await plain.get('n');
    expect(stored?.snapshot.state).toBe('RESOLVING');
    expect(stored?.snapshot.context.calls).toHaveProperty('f1');
    await plain.withSession('n', (s) => s.endToolCall({ id: 'f1', ok: false }));
    expect((await plain.get('n'))?.snapshot.context.calls).toEqual({});
    expect(store.stats().unavailable).toBe(2);
  });
});
