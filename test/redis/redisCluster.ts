import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redisServer.js';

/*
 * A real Redis Cluster for one test file (or one bench run): `redis-server --cluster-enabled yes`
 * on free loopback ports, each in a folder of its own under one temporary folder, joined by
 * `redis-cli --cluster create`. Persistence is off (a killed node comes back empty and resyncs
 * from its primary as a replica). `stop` kills every node, whatever state the test left.
 */

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const REDIS_CLI = process.env.REDIS_CLI ?? '/usr/bin/redis-cli';
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TestClusterOptions {
  /** Primaries (each with `replicas` replicas). Default 3. */
  primaries?: number;
  /** Replicas per primary. Default 1. */
  replicas?: number;
  /** `cluster-node-timeout`, ms: how long before a silent primary is failed over. Default 1000. */
  nodeTimeoutMs?: number;
}

export interface ClusterNode {
  readonly port: number;
  readonly url: string;
  /** Whether the process is running. */
  readonly alive: boolean;
}

export interface TestCluster {
  /** Every node's `redis://127.0.0.1:PORT`. */
  readonly urls: string[];
  readonly nodes: ClusterNode[];
  /** Runs `redis-cli -p PORT ARGS...` and returns its output. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The ports of the nodes that are primaries now, as the cluster sees itself. */
  primaries(): Promise<number[]>;
  /** Sends a signal to a node's process (SIGSTOP / SIGCONT to freeze and thaw it). */
  signal(port: number, signal: NodeJS.Signals): void;
  /** Kills a node at once (SIGKILL). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again (same port, same nodes.conf: it rejoins, as a replica if it was failed over). */
  restart(port: number): Promise<void>;
  /** Resolves once every slot is served, every node up and every replica in sync, or rejects after `ms`. */
  waitHealthy(ms?: number): Promise<void>;
  /** Kills every node and removes the folder. */
  stop(): Promise<void>;
}

/**
 * Starts a Redis Cluster on free loopback ports.
 *
 * @example
 * const cluster = await startTestCluster();
 * const store = createRedisSessionStore({ cluster: cluster.urls });
 * // ...
 * await store.close();
 * await cluster.stop();
 */
export async function startTestCluster(options: TestClusterOptions = {}): Promise<TestCluster> {
  const primaries = options.primaries ?? 3;
  const replicas = options.replicas ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1000;
  const root = mkdtempSync(join(tmpdir(), 'assistant-safety-cluster-'));
  const count = primaries * (1 + replicas);
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    // The cluster bus listens on port + 10000: both must be free and distinct.
    if (port + 10_000 > 65_535 || ports.includes(port) || ports.includes(port + 10_000)) continue;
    ports.push(port);
  }
  const children = new Map<number, ChildProcess>();

  const start = async (port: number) => {
    const dir = join(root, String(port));
    mkdirSync(dir, { recursive: true });
    const child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        String(nodeTimeoutMs),
        // A replica of any age may be promoted: the test kills a primary whose replica is in sync.
        '--cluster-replica-validity-factor',
        '0',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
        '--logfile',
        '',
        '--loglevel',
        'warning',
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'] },
    );
    children.set(port, child);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (e) => reject(new Error(`cannot start ${REDIS_SERVER}: ${e.message}`)));
    });
    const until = Date.now() + 10_000;
    for (;;) {
      try {
        if ((await cli(port, 'PING')).trim() === 'PONG') return;
      } catch {
        // not up yet
      }
      if (Date.now() > until) throw new Error(`cluster node ${port} did not answer within 10 s`);
      await sleep(25);
    }
  };

  const cli = async (port: number, ...args: string[]) =>
    (await run(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 })).stdout;

  const alive = (port: number) => {
    const c = children.get(port);
    return c !== undefined && c.exitCode === null && c.signalCode === null;
  };

  const kill = async (port: number) => {
    const c = children.get(port);
    if (!c || !alive(port)) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };

  const stop = async () => {
    await Promise.all(ports.map(kill));
    rmSync(root, { recursive: true, force: true });
  };

  /** `CLUSTER NODES` as one live node sees it. */
  const clusterNodes = async () => {
    for (const port of ports) {
      if (!alive(port)) continue;
      try {
        return (await cli(port, 'CLUSTER', 'NODES')).trim().split('\n');
      } catch {
        // ask the next one
      }
    }
    throw new Error('no cluster node answers');
  };

  const primariesNow = async () =>
    (await clusterNodes())
      .map((line) => line.split(' '))
      .filter((f) => f[2]!.includes('master') && !f[2]!.includes('fail'))
      .map((f) => Number(f[1]!.split(':')[1]!.split('@')[0]));

  const healthy = async (): Promise<string | undefined> => {
    for (const port of ports) {
      if (!alive(port)) return `node ${port} is down`;
      const info = await cli(port, 'CLUSTER', 'INFO');
      if (!/cluster_state:ok/.test(info)) return `node ${port}: cluster state not ok`;
      if (!/cluster_slots_ok:16384/.test(info)) return `node ${port}: not every slot ok`;
      const replication = await cli(port, 'INFO', 'replication');
      if (/role:slave/.test(replication)) {
        if (!/master_link_status:up/.test(replication)) return `replica ${port}: link down`;
        if (/master_sync_in_progress:1/.test(replication)) return `replica ${port}: still syncing`;
      } else if (!new RegExp(`connected_slaves:${replicas}\\b`).test(replication))
        return `primary ${port}: not ${replicas} replica(s)`;
    }
    const failing = (await clusterNodes()).filter((l) => /fail/.test(l.split(' ')[2]!));
    return failing.length > 0 ? `a node is flagged failing: ${failing[0]}` : undefined;
  };

  const waitHealthy = async (ms = 30_000) => {
    const until = Date.now() + ms;
    let why: string | undefined = 'not checked';
    while (Date.now() < until) {
      try {
        why = await healthy();
      } catch (e) {
        why = (e as Error).message;
      }
      if (why === undefined) return;
      await sleep(100);
    }
    throw new Error(`the cluster is not healthy after ${ms} ms: ${why}`);
  };

  try {
    await Promise.all(ports.map(start));
    await run(
      REDIS_CLI,
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { timeout: 30_000 },
    );
    await waitHealthy();
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    urls: ports.map((p) => `redis://127.0.0.1:${p}`),
    nodes: ports.map((port) => ({
      port,
      url: `redis://127.0.0.1:${port}`,
      get alive() {
        return alive(port);
      },
    })),
    cli,
    primaries: primariesNow,
    signal: (port, signal) => void children.get(port)?.kill(signal),
    kill,
    restart: async (port) => {
      await kill(port);
      await start(port);
    },
    waitHealthy,
    stop,
  };
}
