import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { sessionKey } from '../../src/redis/keys.js';
import { cli, connect, fixtureCommand, ROOT, runsOf, tempDir, type Connected } from '../mcp/helpers.js';
import { startTestCluster, type TestCluster } from './redisCluster.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * `--redis-durability primary|replicated` in the CLI's gateway, on real clusters. Before it, the
 * CLI had no way to ask for durability 'replicated': a gateway's decisions were confirmed once the
 * primary had them, and a failover before a replica copied one lost it. With `replicated`, a
 * decision counts only once a replica has it (WAIT 1): the client's answer comes after the replica
 * holds the save; a replica that does not acknowledge in time (the call's claim, then its decision)
 * keeps the call from running; and a
 * cluster with no replica stops the gateway at its start, in one line, rather than hanging or
 * letting calls through unconfirmed.
 *
 * The first test also stands for the start-up retry the gateway used to make (up to 10 s) before
 * its first call on a cluster: a gateway started on a fresh cluster answers its first call without it.
 */

const PREFIX = 'dur:';
let bare: TestCluster; // 3 primaries, no replica
let withReplicas: TestCluster; // 3 primaries, 1 replica each
let single: TestRedis;
let raw: Cluster;
const gateways: Connected[] = [];

beforeAll(async () => {
  withReplicas = await startTestCluster({ primaries: 3, replicas: 1 });
  single = await startTestRedis();
  // Started last: the first test runs a gateway on it as soon as it is up.
  bare = await startTestCluster({ primaries: 3, replicas: 0 });
}, 120_000);
afterAll(async () => {
  for (const g of gateways) await g.client.close().catch(() => undefined);
  raw?.disconnect();
  await single?.stop();
  await bare?.stop();
  await withReplicas?.stop();
});

/** Starts a gateway (over stdio, with the fixture server) with `options`, in a folder of its own. */
async function gateway(options: string[]): Promise<Connected & { dir: string }> {
  const dir = tempDir();
  const g = await connect(cli(['mcp-gateway', ...options, '--', ...fixtureCommand(dir)]), dir);
  gateways.push(g);
  return { ...g, dir };
}

/** One call: null when it ran, else the text of the error it was answered with. */
async function call(g: Connected, name: string, service: string): Promise<string | null> {
  const result = (await g.client.callTool({ name, arguments: { name: service } }).catch((e: Error) => {
    throw new Error(`${e.message}; the gateway said: ${g.stderr()}`);
  })) as { isError?: boolean; content?: Array<{ text?: string }> };
  return result.isError ? (result.content?.[0]?.text ?? 'error') : null;
}

/** Runs `assistant-safety ARGS` in a child with nothing on stdin; null as the code when it had to be killed. */
function run(args: string[]): { code: number | null; err: string } {
  const [node, ...rest] = cli(args);
  const r = spawnSync(node!, rest, { cwd: ROOT, encoding: 'utf8', input: '', timeout: 30_000 });
  return { code: r.status, err: r.stderr };
}

/** The ports of the primary that owns a session's key, and of its replica. */
async function nodesOf(session: string): Promise<{ primary: number; replica: number }> {
  raw ??= new Cluster([{ host: '127.0.0.1', port: withReplicas.nodes[0]!.port }]);
  if (raw.status !== 'ready') await new Promise((resolve) => raw.once('ready', resolve));
  const slot = (await raw.cluster('KEYSLOT', sessionKey(PREFIX, session))) as number;
  const [primary, replica] = raw.slots[slot]!.map((node) => Number(node.split(':')[1]));
  return { primary: primary!, replica: replica! };
}

describe('mcp-gateway --redis-cluster on a fresh cluster', () => {
  it('should answer its first call', async () => {
    const g = await gateway(['--redis-cluster', bare.urls[0]!, '--session', 'first-call']);
    expect(await call(g, 'get_status', 'web')).toBeNull();
    expect(runsOf(g.dir).map((r) => r.tool)).toEqual(['get_status']);
    expect(g.stderr()).not.toMatch(/redis:|cannot start/);
  }, 60_000);
});

describe('mcp-gateway --redis-durability replicated', () => {
  it('should answer a call only once the replica of the session’s primary holds its save', async () => {
    const session = 'rep-1';
    const { primary, replica } = await nodesOf(session);
    const g = await gateway([
      ...['--redis-cluster', withReplicas.urls[0]!, '--redis-prefix', PREFIX, '--session', session],
      ...['--redis-durability', 'replicated'],
    ]);
    expect(g.stderr()).toContain(`session ${session} (Redis Cluster, saves confirmed by a replica): gating`);
    expect(await call(g, 'get_status', 'web')).toBeNull();

    // Read at once, with no wait: the answer came after WAIT 1 said the replica had the call's end.
    const onPrimary = new Redis(`redis://127.0.0.1:${primary}`);
    const onReplica = new Redis(`redis://127.0.0.1:${replica}`);
    try {
      await onReplica.call('READONLY');
      expect(await onReplica.info('replication')).toMatch(/^role:slave/m);
      const fields = ['rev', 'v', 'data'];
      const stored = await onPrimary.hmget(sessionKey(PREFIX, session), ...fields);
      expect(stored[0]).not.toBeNull();
      expect(await onReplica.hmget(sessionKey(PREFIX, session), ...fields)).toEqual(stored);
      // The copy on the replica is the session after the read ended: no call in flight.
      expect(JSON.parse(stored[2]!)).toMatchObject({ id: session, context: { calls: {} } });
    } finally {
      onPrimary.disconnect();
      onReplica.disconnect();
    }
  }, 60_000);

  it('should not run a call whose claim the replica did not acknowledge, where durability primary does', async () => {
    const { primary, replica } = await nodesOf('rep-2');
    // A second session on the same primary, for a gateway with the default durability.
    let other = '';
    for (let i = 0; other === ''; i++) if ((await nodesOf(`pri-${i}`)).primary === primary) other = `pri-${i}`;
    const seed = `redis://127.0.0.1:${primary}`;
    const replicated = await gateway([
      ...['--redis-cluster', seed, '--redis-prefix', PREFIX, '--session', 'rep-2', '--redis-durability', 'replicated'],
    ]);
    const primaryOnly = await gateway(['--redis-cluster', seed, '--redis-prefix', PREFIX, '--session', other]);
    // A read first in each session: the write then has a validated target.
    for (const g of [replicated, primaryOnly]) expect(await call(g, 'get_status', 'web')).toBeNull();
    withReplicas.signal(replica, 'SIGSTOP'); // up, connected, and acknowledging nothing
    try {
      const refused = await replicated.client.callTool({ name: 'restart_service', arguments: { name: 'web' } }).then(
        () => 'ran',
        (e: Error) => e.message,
      );
      expect(refused).toContain('the session could not be saved, so restart_service did not run');
      // The call's claim is the first write to wait for the replica: it is refused before the decision.
      expect(refused).toMatch(
        /claimed call \S+ on the primary, but no replica acknowledged the claim before the deadline/,
      );
      expect(runsOf(replicated.dir).map((r) => r.tool)).toEqual(['get_status']);
      // The same write with durability primary is confirmed by the primary alone, and runs.
      expect(await call(primaryOnly, 'restart_service', 'web')).toBeNull();
      expect(runsOf(primaryOnly.dir).map((r) => r.tool)).toEqual(['get_status', 'restart_service']);
    } finally {
      withReplicas.signal(replica, 'SIGCONT');
    }
  }, 60_000);

  it('should not start, in one line, on a cluster with no replica (nor on one server without one)', () => {
    const server = [process.execPath, '-e', ''];
    const cluster = run([
      ...['mcp-gateway', '--redis-cluster', bare.urls[0]!, '--session', 'no-replica'],
      ...['--redis-durability', 'replicated', '--', ...server],
    ]);
    expect(cluster.code).toBe(2); // ended by itself, within the call's deadline: no hang
    expect(cluster.err.trimEnd().split('\n')).toHaveLength(1);
    // Saved on the primary and not acknowledged, or (the node's first script) not saved at all.
    expect(cluster.err.trimEnd()).toMatch(
      /^mcp-gateway: cannot start: Redis Cluster at redis:\/\/127\.0\.0\.1:\d+: session "no-replica": .*no replica acknowledged .*\(--redis-durability replicated needs a replica of the session's primary, up and in sync\)$/,
    );
    expect(cluster.err).not.toContain('not answering');

    const one = run([
      ...['mcp-gateway', '--redis', single.url, '--session', 'no-replica'],
      ...['--redis-durability', 'replicated', '--', ...server],
    ]);
    expect(one.code).toBe(2);
    expect(one.err.trimEnd().split('\n')).toHaveLength(1);
    expect(one.err).toMatch(
      /^mcp-gateway: cannot start: Redis at redis:\/\/127\.0\.0\.1:\d+: session "no-replica": .*no replica acknowledged/,
    );
    expect(one.err).not.toContain('not answering');
  }, 60_000);
});
