import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisSessionStore } from 'assistant-safety/redis';
import { checkRedisServer } from '../../src/redis/cliSupport.js';
import { startTestCluster, type TestCluster } from './redisCluster.js';

/*
 * First-contact review: the seed check behind the CLI's --redis-cluster (checkRedisServer, run by
 * mcp-gateway, replay and serve before anything starts) against what docs/redis.md says of it:
 * "credentials and TLS from the first URL", and "one that does not answer is only [a problem] when
 * none does". Before the fix:
 *   - redis://:PW@A,redis://B on a cluster with a password was refused ("Redis at redis://B refused the
 *     connection (it needs a password ...)") though the store itself takes B's credentials from A and
 *     works with those very URLs;
 *   - a seed that accepts the connection and never answers (a hung host) was reported, after ~15 s, as
 *     "refused the connection: Command timed out" and stopped the CLI although the other seeds answer.
 */

const PASSWORD = 'pw-seeds';
let cluster: TestCluster;
let blackhole: Server;
let blackholePort: number;
const sockets = new Set<Socket>();
const withPassword = (url: string) => url.replace('redis://', `redis://:${PASSWORD}@`);

beforeAll(async () => {
  cluster = await startTestCluster({ primaries: 3, replicas: 0 });
  for (const node of cluster.nodes) {
    const raw = new Redis(node.url);
    await raw.config('SET', 'requirepass', PASSWORD);
    raw.disconnect();
  }
  // Accepts TCP connections and never says a word: a host that hangs.
  blackhole = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
  blackholePort = (blackhole.address() as { port: number }).port;
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  blackhole?.close();
  await cluster?.stop();
});

describe('--redis-cluster seeds, as docs/redis.md describes them', () => {
  it('should take the credentials of every seed from the first URL, as the store does', async () => {
    const seeds = [withPassword(cluster.urls[0]!), cluster.urls[1]!];
    // The library takes these very URLs: credentials from the first one.
    const store = createRedisSessionStore({ cluster: seeds, timeoutMs: 5_000 });
    try {
      await store.withSession('seeds', (s) => s.beginToolCall({ id: 'r1', kind: 'read', tool: 'get' }));
    } finally {
      await store.close();
    }
    // The CLI's check before anything starts refuses them.
    expect(await checkRedisServer({ cluster: seeds })).toBeUndefined();
  }, 30_000);

  it('should not refuse a cluster whose other seeds answer because one seed hangs, nor call a hang a refusal', async () => {
    const hung = `redis://:${PASSWORD}@127.0.0.1:${blackholePort}`;
    expect(await checkRedisServer({ cluster: [...cluster.urls.map(withPassword), hung] })).toBeUndefined();
    const alone = await checkRedisServer({ cluster: [hung] });
    expect(alone?.unreachable).toBe(true);
    expect(alone?.message).toMatch(/is not answering/);
    expect(alone?.message).not.toMatch(/refused the connection/);
  }, 60_000);
});
