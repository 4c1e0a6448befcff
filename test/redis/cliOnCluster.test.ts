import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../mcp/helpers.js';
import { startTestCluster, type TestCluster } from './redisCluster.js';

/*
 * The CLI's --redis pointed at a Redis Cluster node: before, mcp-gateway said "cannot start node:
 * MOVED ..." for a session whose slot lived elsewhere, serve listed that node's sessions only, and
 * replay printed a MOVED stack trace and never exited. Each now says, in one line, that the URL is
 * a cluster node, and exits.
 */

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ primaries: 3, replicas: 0 });
}, 60_000);
afterAll(async () => {
  await cluster.stop();
});

/** Runs `assistant-safety ARGS` in a child with nothing on stdin; null as the code when it had to be killed. */
function run(args: string[]): { code: number | null; err: string } {
  const [node, ...rest] = cli(args);
  const r = spawnSync(node!, rest, { cwd: ROOT, encoding: 'utf8', input: '', timeout: 30_000 });
  return { code: r.status, err: r.stderr };
}

const CLUSTER_NODE = /is a Redis Cluster node: the CLI's --redis takes one Redis server, not a cluster/;

describe('the CLI on a Redis Cluster node', () => {
  it('should refuse it in mcp-gateway, in one line, before the server starts', () => {
    const r = run(['mcp-gateway', '--redis', cluster.urls[0]!, '--session', 's1', '--', process.execPath, '-e', '']);
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(CLUSTER_NODE);
    expect(r.err).not.toMatch(/MOVED|cannot start node/);
  });

  it('should refuse it in serve rather than list one node’s sessions', () => {
    const r = run(['serve', '--port', '0', '--redis', cluster.urls[1]!]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(CLUSTER_NODE);
  });

  it('should refuse it in replay and exit, with no stack trace', () => {
    // Sessions whose slots live on each of the three primaries: one of them is elsewhere for any node.
    for (const session of ['s1', 's2', 's3']) {
      const r = run(['replay', '--redis', cluster.urls[0]!, '--session', session]);
      expect(r.code).toBe(2);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(CLUSTER_NODE);
      expect(r.err).not.toMatch(/ReplyError|\n\s+at /);
    }
  });
});
