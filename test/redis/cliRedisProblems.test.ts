import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisSessionStore } from 'assistant-safety/redis';
import { cli, ROOT } from '../mcp/helpers.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * What the CLI says when the Redis of --redis refuses it: before, a wrong password, a missing one or
 * a stored session it could not read came out as "cannot start node: ..." (blaming the MCP server),
 * and a database index out of range was logged and the gateway went on, saving into database 0.
 */

let redis: TestRedis;
let raw: Redis;
const PASSWORD = 'sekret-pw';
const url = (auth: string, path = '') => `redis://${auth}127.0.0.1:${redis.port}${path}`;

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  await raw.config('SET', 'requirepass', PASSWORD);
  await raw.auth(PASSWORD);
});
afterAll(async () => {
  raw.disconnect();
  await redis.stop();
});

/** Runs `assistant-safety ARGS` in a child with no client on stdin; its exit code and stderr. */
function run(args: string[]): { code: number | null; err: string } {
  const [node, ...rest] = cli(args);
  const r = spawnSync(node!, rest, { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 });
  return { code: r.status, err: r.stderr };
}

const gateway = (redisUrl: string, session = 's1') =>
  run(['mcp-gateway', '--redis', redisUrl, '--session', session, '--', process.execPath, '-e', '']);

describe('mcp-gateway --redis when Redis refuses', () => {
  it('should say Redis refused a wrong password, in one line, without printing the password', () => {
    const r = gateway(url(':wrong-pw@'));
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toEqual([
      `mcp-gateway: cannot start: Redis at redis://:***@127.0.0.1:${redis.port} refused the connection (the user or password in the URL is wrong): WRONGPASS invalid username-password pair or user is disabled.`,
    ]);
  });

  it('should say Redis needs a password when the URL has none', () => {
    const r = gateway(url(''));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^mcp-gateway: cannot start: Redis at redis:\/\/127\.0\.0\.1:\d+ refused the connection \(it needs a password/,
    );
    expect(r.err).not.toMatch(/cannot start node/);
  });

  it('should refuse a database index out of range, naming it, and save nothing', async () => {
    const before = await raw.dbsize();
    const r = gateway(url(`:${PASSWORD}@`, '/99'));
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toEqual([
      `mcp-gateway: cannot start: Redis at redis://:***@127.0.0.1:${redis.port}/99: the URL's database "99" cannot be used: ERR DB index is out of range`,
    ]);
    expect(await raw.dbsize()).toBe(before);
    // replay --redis refuses it as well, rather than reading database 0.
    const replay = run(['replay', '--redis', url(`:${PASSWORD}@`, '/99'), '--session', 's1']);
    expect(replay.code).toBe(2);
    expect(replay.err).toContain(`the URL's database "99" cannot be used`);
  });

  it('should name the key of a stored session it cannot read, and what to do', async () => {
    const store = createRedisSessionStore({ url: url(`:${PASSWORD}@`), keyPrefix: 'bad:' });
    await store.withSession('broken', (s) => s.targetEstablished());
    await store.close();
    const data = JSON.parse((await raw.hget('bad:{broken}:s', 'data'))!) as Record<string, unknown>;
    await raw.hset('bad:{broken}:s', 'data', JSON.stringify({ ...data, state: 'NOT_A_STATE' }));
    const [node, ...rest] = cli([
      'mcp-gateway',
      '--redis',
      url(`:${PASSWORD}@`),
      '--redis-prefix',
      'bad:',
      '--session',
      'broken',
      '--',
      process.execPath,
      '-e',
      'setTimeout(() => {}, 30000)',
    ]);
    const r = spawnSync(node!, rest, { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 });
    expect(r.stderr).toMatch(
      /^mcp-gateway: cannot start: the session "broken" stored in Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(key bad:\{broken\}:s\) cannot be read: invalid snapshot: state: .*; start with another --session, or delete the key/m,
    );
    expect(r.stderr).not.toMatch(/cannot start node/);
    expect(r.status).toBe(2);
  });
});
