import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from 'ioredis';
import { createRedisSessionStore, type RedisSessionStore } from 'assistant-safety/redis';
import { streamKey } from '../../src/redis/keys.js';
import { cli, connect, envelopeOf, fixtureCommand, ROOT, runsOf, tempDir } from '../mcp/helpers.js';
import { startTestCluster, type TestCluster } from './redisCluster.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * The CLI on a Redis Cluster. `--redis URL` takes one server: given a cluster node, mcp-gateway said
 * "cannot start node: MOVED ..." for a session whose slot lived elsewhere, serve listed that node's
 * sessions only, and replay printed a MOVED stack trace and never exited; each now says, in one
 * line, that the URL is a cluster node and to give --redis-cluster. `--redis-cluster URL[,URL...]`
 * takes the cluster: the gateway's session, replay's stream and serve's sessions live on whichever
 * primary owns their slot.
 */

const PREFIX = 'clu:';
let cluster: TestCluster;
let single: TestRedis;
let raw: Cluster;
let store: RedisSessionStore;
/** A session id whose keys live on each primary (by port). */
const sessionOn = new Map<number, string>();

beforeAll(async () => {
  cluster = await startTestCluster({ primaries: 3, replicas: 0 });
  single = await startTestRedis();
  raw = new Cluster([{ host: '127.0.0.1', port: cluster.nodes[0]!.port }]);
  await new Promise((resolve) => raw.once('ready', resolve));
  store = createRedisSessionStore({ cluster: cluster.urls, keyPrefix: PREFIX, streams: true, timeoutMs: 10_000 });
  const primaries = await cluster.primaries();
  for (let i = 0; sessionOn.size < primaries.length; i++) {
    const port = await primaryOf(streamKey(PREFIX, `s${i}`));
    if (!sessionOn.has(port)) sessionOn.set(port, `s${i}`);
  }
}, 60_000);
afterAll(async () => {
  await store?.close();
  raw?.disconnect();
  await single?.stop();
  await cluster?.stop();
});

/** The port of the primary that owns a key's slot. */
async function primaryOf(key: string): Promise<number> {
  const slot = (await raw.cluster('KEYSLOT', key)) as number;
  return Number(raw.slots[slot]![0]!.split(':')[1]);
}

/** Runs `assistant-safety ARGS` in a child with nothing on stdin; null as the code when it had to be killed. */
function run(args: string[]): { code: number | null; out: string; err: string } {
  const [node, ...rest] = cli(args);
  const r = spawnSync(node!, rest, { cwd: ROOT, encoding: 'utf8', input: '', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** One read, then one write, both ended, in the session `id`: three calls' worth of recording. */
async function saveCalls(id: string) {
  await store.withSession(id, (s) => s.beginToolCall({ id: 'r1', kind: 'read', tool: 'get_status' }));
  await store.withSession(id, (s) => s.endToolCall({ id: 'r1', ok: true }));
  await store.withSession(id, (s) => s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart' }));
  await store.withSession(id, (s) => s.endToolCall({ id: 'w1', ok: true }));
}

const CLUSTER_NODE = /is a Redis Cluster node: the CLI's --redis takes one Redis server, not a cluster/;
const oneLine = (text: string) => expect(text.trimEnd().split('\n')).toHaveLength(1);

describe('the CLI with --redis on a Redis Cluster node', () => {
  it('should refuse it in mcp-gateway, in one line, before the server starts, pointing to --redis-cluster', () => {
    const r = run(['mcp-gateway', '--redis', cluster.urls[0]!, '--session', 's1', '--', process.execPath, '-e', '']);
    expect(r.code).toBe(2);
    oneLine(r.err);
    expect(r.err).toMatch(CLUSTER_NODE);
    expect(r.err).toContain("give the cluster's nodes with --redis-cluster");
    expect(r.err).not.toMatch(/MOVED|cannot start node/);
  });

  it('should refuse it in serve rather than list one node’s sessions', () => {
    const r = run(['serve', '--port', '0', '--redis', cluster.urls[1]!]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(CLUSTER_NODE);
    expect(r.err).toContain('--redis-cluster');
  });

  it('should refuse it in replay and exit, with no stack trace', () => {
    // Sessions whose slots live on each of the three primaries: one of them is elsewhere for any node.
    for (const session of sessionOn.values()) {
      const r = run(['replay', '--redis', cluster.urls[0]!, '--session', session]);
      expect(r.code).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(CLUSTER_NODE);
      expect(r.err).not.toMatch(/ReplyError|\n\s+at /);
    }
  });
});

describe('the CLI with --redis-cluster', () => {
  it('should keep an mcp-gateway session in the cluster across two gateway runs', async () => {
    // A session on a primary other than the one seed node given.
    const seed = cluster.urls[0]!;
    const session = [...sessionOn].find(([port]) => port !== cluster.nodes[0]!.port)![1];
    const dir = tempDir();
    const rules = join(dir, 'rules.json');
    writeFileSync(
      rules,
      JSON.stringify({
        tools: {
          get_status: { kind: 'read', targets: ['name'] },
          restart_service: { kind: 'write', targets: ['name'] },
        },
      }),
    );
    const gateway = () =>
      connect(
        cli([
          ...['mcp-gateway', '--redis-cluster', seed, '--redis-prefix', PREFIX, '--session', `gw-${session}`],
          ...['--rules', rules, '--targets', 'bind', '--', ...fixtureCommand(dir)],
        ]),
        dir,
      );
    const reasonOf = async (g: Awaited<ReturnType<typeof gateway>>, name: string, service: string) => {
      const result = (await g.client.callTool({ name, arguments: { name: service } }).catch((e: Error) => {
        throw new Error(`${e.message}; the gateway said: ${g.stderr()}`);
      })) as {
        isError?: boolean;
        content?: unknown;
      };
      return result.isError ? (envelopeOf(result).details?.reasonCode ?? 'error') : null;
    };

    const first = await gateway();
    expect(await reasonOf(first, 'get_status', 'web')).toBeNull(); // validates web
    await first.client.close();
    expect(await first.exited).toBe(0);

    // A second gateway process: what the first validated is in the cluster, what it did not is not.
    const second = await gateway();
    expect(await reasonOf(second, 'restart_service', 'db')).toBe('TARGET_NOT_VALIDATED');
    expect(await reasonOf(second, 'restart_service', 'web')).toBeNull();
    await second.client.close();
    expect(await second.exited).toBe(0);
    expect(runsOf(dir).map((r) => r.tool)).toEqual(['get_status', 'restart_service']);

    const saved = await store.get(`gw-${session}`);
    expect(saved?.snapshot.context.validatedTargets).toEqual(['web']);
    const recording = await store.readRecording(`gw-${session}`);
    expect(recording.map((r) => r.worker)).toEqual(expect.arrayContaining([expect.stringMatching(/^mcp-gateway:/)]));
  }, 120_000);

  it('should replay a session on each primary from one seed node, and exit', async () => {
    expect(sessionOn.size).toBe(3);
    for (const session of sessionOn.values()) {
      await saveCalls(session);
      const r = run(['replay', '--redis-cluster', cluster.urls[0]!, '--redis-prefix', PREFIX, '--session', session]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(
        `redis ${streamKey(PREFIX, session)}: ${(await store.readRecording(session)).length} entries, 1 session`,
      );
      expect(r.out).toMatch(new RegExp(`session ${session}: ends in \\w+`));
      expect(r.out).toContain('no divergence');
    }
    const missing = run(['replay', '--redis-cluster', cluster.urls.join(','), '--session', 'nobody']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no recording stream for session "nobody"/);
  }, 120_000);

  it('should list in serve the sessions of every primary', async () => {
    const ids = [...sessionOn.values()];
    for (const id of ids) if ((await store.readRecording(id)).length === 0) await saveCalls(id);
    const ports = new Set(await Promise.all(ids.map((id) => primaryOf(streamKey(PREFIX, id)))));
    expect(ports.size).toBe(3);

    const [node, ...args] = cli([
      'serve',
      '--port',
      '0',
      '--redis-cluster',
      cluster.urls[2]!,
      '--redis-prefix',
      PREFIX,
    ]);
    const child = spawn(node!, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += String(d)));
    child.stderr!.on('data', (d: Buffer) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\S*token=/m);
      const url = new URL(/^(http:\/\/127\.0\.0\.1:\S+)$/m.exec(out)![1]!);
      const sessions = async () => {
        const res = await fetch(`${url.origin}/api/sessions`, {
          headers: { 'x-assistant-safety-token': url.searchParams.get('token')! },
        });
        return ((await res.json()) as { sessions: { id: string; events: number }[] }).sessions;
      };
      const expected = await Promise.all(
        ids.map(async (id) => ({ id, events: (await store.readRecording(id)).length })),
      );
      await expect
        .poll(
          async () => (await sessions()).filter((s) => ids.includes(s.id)).map(({ id, events }) => ({ id, events })),
          {
            timeout: 30_000,
          },
        )
        .toEqual(expect.arrayContaining(expected));
      expect(out).toMatch(
        /following the sessions in Redis Cluster at redis:\/\/127\.0\.0\.1:\d+ \(key prefix "clu:"\)/,
      );
      expect(out).not.toMatch(/CROSSSLOT|MOVED/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it('should say in serve, in its own words, that a cluster it keeps trying is not answering', async () => {
    const [node, ...args] = cli(['serve', '--port', '0', '--redis-cluster', 'redis://127.0.0.1:1']);
    const child = spawn(node!, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect
        .poll(() => err, { timeout: 30_000 })
        .toContain('serve: Redis Cluster at redis://127.0.0.1:1 is not answering (still trying)');
      expect(err).not.toMatch(/slots cache/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);

  it('should refuse a node that is one Redis server, in one line naming it', () => {
    const gateway = run([
      'mcp-gateway',
      '--redis-cluster',
      single.url,
      '--session',
      's',
      '--',
      process.execPath,
      '-e',
      '',
    ]);
    expect(gateway.code).toBe(2);
    oneLine(gateway.err);
    expect(gateway.err).toContain(`${single.url} is not a Redis Cluster node`);
    expect(gateway.err).toContain(`for one Redis server, give --redis ${single.url}`);
    // Among good seeds too: a list that names a server that is not the cluster's is a mistake.
    const replay = run(['replay', '--redis-cluster', `${cluster.urls[0]},${single.url}`, '--session', 's0']);
    expect(replay.code).toBe(2);
    oneLine(replay.err);
    expect(replay.err).toContain(`${single.url} is not a Redis Cluster node`);
    const serve = run(['serve', '--port', '0', '--redis-cluster', single.url]);
    expect(serve.code).toBe(2);
    expect(serve.err).toContain(`${single.url} is not a Redis Cluster node`);
  });

  it('should say in one line that the cluster is not answering when no node does', () => {
    const down = 'redis://127.0.0.1:1,redis://127.0.0.1:2';
    const gateway = run(['mcp-gateway', '--redis-cluster', down, '--session', 's', '--', process.execPath, '-e', '']);
    expect(gateway.code).toBe(2);
    oneLine(gateway.err);
    expect(gateway.err).toMatch(
      /^mcp-gateway: cannot start: Redis Cluster at redis:\/\/127\.0\.0\.1:1,redis:\/\/127\.0\.0\.1:2 is not answering/,
    );
    const replay = run(['replay', '--redis-cluster', down, '--session', 's']);
    expect(replay.code).toBe(2);
    oneLine(replay.err);
    expect(replay.err).toMatch(/^replay: Redis Cluster at redis:\/\/127\.0\.0\.1:1,.* is not answering/);
  });

  it('should refuse --redis with --redis-cluster, and a URL that is not redis://', () => {
    const both = run(['replay', '--redis', single.url, '--redis-cluster', cluster.urls[0]!, '--session', 's']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('--redis and --redis-cluster do not go together');
    const bad = run(['serve', '--redis-cluster', `${cluster.urls[0]},http://x`]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--redis-cluster: expected a redis:// or rediss:// URL, got "http://x"');
    // A database copied from a one-server URL would be dropped in silence: two setups would share sessions.
    const db = run(['replay', '--redis-cluster', `${cluster.urls[0]}/3`, '--session', 's']);
    expect(db.code).toBe(2);
    expect(db.err.split('\n')[0]).toContain('a Redis Cluster has only database 0');
  });
});
