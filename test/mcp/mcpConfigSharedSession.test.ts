import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.js';

/*
 * `mcp-config` writes the entry a client starts the gateway with, so every gateway option a
 * deployment needs goes through it (target binding, shadow mode, escalation, a session shared
 * through Redis), checked as the gateway checks it: an entry the gateway would refuse would stop
 * the server at every start of the client.
 */

const gatewayArgs = (out: string) => {
  const entry = Object.values(JSON.parse(out).mcpServers)[0] as { args: string[] };
  return entry.args.slice(entry.args.indexOf('mcp-gateway'));
};

describe('mcp-config with the gateway options of a shared session', () => {
  it('should pass --targets, --shadow, --escalate and the Redis session on to the gateway', async () => {
    const options = [
      ...['--targets', 'bind', '--shadow', '--escalate', 'TARGET_NOT_VALIDATED'],
      ...['--redis', 'redis://127.0.0.1:6390', '--session', 'team-a', '--orphan-after-ms', '60000'],
    ];
    const r = await runCli(['mcp-config', 'cursor', ...options, '--', 'npx', 'some-server']);
    expect(r.code, r.err).toBe(0);
    // mcp-config writes them in a fixed order, which is the order given here.
    expect(gatewayArgs(r.out)).toEqual(['mcp-gateway', ...options, '--', 'npx', 'some-server']);
  });

  it('should pass a Redis Cluster (--redis-cluster) on to the gateway, its nodes as given', async () => {
    const options = [
      ...['--redis-cluster', 'redis://10.0.0.1:7000,redis://10.0.0.2:7000', '--session', 'team-a'],
      ...['--redis-prefix', 'p:', '--orphan-after-ms', '60000'],
    ];
    const r = await runCli(['mcp-config', 'cursor', ...options, '--', 'npx', 'some-server']);
    expect(r.code, r.err).toBe(0);
    expect(gatewayArgs(r.out)).toEqual(['mcp-gateway', ...options, '--', 'npx', 'some-server']);
  });

  it('should pass --redis-durability on to the gateway, with --redis-cluster and with --redis', async () => {
    for (const target of [
      ['--redis-cluster', 'redis://10.0.0.1:7000'],
      ['--redis', 'redis://127.0.0.1:6390'],
    ]) {
      const options = [...target, '--session', 'team-a', '--redis-durability', 'replicated'];
      const r = await runCli(['mcp-config', 'cursor', ...options, '--', 'npx', 'some-server']);
      expect(r.code, r.err).toBe(0);
      expect(gatewayArgs(r.out)).toEqual(['mcp-gateway', ...options, '--', 'npx', 'some-server']);
    }
  });

  it.each([
    [['--targets', 'bound'], '--targets: expected ignore or bind, got "bound"'],
    [
      ['--redis-cluster', 'redis://10.0.0.1:7000', '--session', 's', '--redis-durability', 'replica'],
      '--redis-durability: expected primary or replicated, got "replica"',
    ],
    [['--redis-durability', 'replicated'], '--redis-durability goes with --redis or --redis-cluster'],
    [['--escalate', 'WRITE_IN_FLIGHT'], '--escalate: WRITE_IN_FLIGHT cannot be asked'],
    [['--redis', 'http://x'], '--redis: expected a redis:// or rediss:// URL'],
    [['--redis', 'redis://127.0.0.1:6390'], '--redis needs --session ID'],
    [['--session', 's'], '--session goes with --redis'],
    [
      ['--redis-cluster', 'redis://10.0.0.1:7000,http://x'],
      '--redis-cluster: expected a redis:// or rediss:// URL, got "http://x"',
    ],
    [['--redis-cluster', ','], '--redis-cluster: expected one or more redis:// or rediss:// URLs'],
    [['--redis-cluster', 'redis://10.0.0.1:7000'], '--redis-cluster needs --session ID'],
    [
      ['--redis', 'redis://127.0.0.1:6390', '--redis-cluster', 'redis://10.0.0.1:7000', '--session', 's'],
      '--redis and --redis-cluster do not go together',
    ],
    [
      ['--redis-cluster', 'redis://10.0.0.1:7000', '--session', 's', '--record', 'r.jsonl'],
      '--record does not go with --redis-cluster',
    ],
    [
      ['--redis', 'redis://127.0.0.1:6390', '--session', 's', '--record', 'r.jsonl'],
      '--record does not go with --redis',
    ],
    [['--redis', 'redis://127.0.0.1:6390', '--session', 's', '--orphan-after-ms', '5'], '--orphan-after-ms'],
  ])('should refuse what the gateway would refuse, printing no entry: %j', async (args, message) => {
    const r = await runCli(['mcp-config', 'cursor', ...args, '--', 'npx', 'some-server']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(message);
  });
});
