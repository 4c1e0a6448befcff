import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, connect, fixtureCommand, tempDir } from './helpers.js';

/*
 * `--targets bind` checks the targets the rules name. With no rule naming any, it changes nothing:
 * the gateway says so when it starts, rather than let a user believe writes are bound.
 */

async function gatewayErr(args: string[]): Promise<string> {
  // The server does not exist: the gateway stops after its start-up checks, which is all this needs.
  const [node, ...rest] = cli(['mcp-gateway', ...args, '--', 'assistant-safety-no-such-server']);
  return spawnSync(node!, rest, { input: '', encoding: 'utf8', timeout: 60_000 }).stderr;
}

describe('mcp-gateway --targets bind with rules that name no targets', () => {
  const dir = tempDir();
  const rulesFile = (rules: unknown) => {
    const file = join(dir, `rules-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(rules));
    return file;
  };

  it('should say that binding changes nothing when no rule names targets', async () => {
    const file = rulesFile({ tools: { list_vms: 'resolve', stop_vm: 'write' } });
    expect(await gatewayErr(['--targets', 'bind', '--rules', file])).toContain(
      `mcp-gateway: --targets bind: no rule in ${file} names a write's target arguments ("targets")`,
    );
  });

  it('should say it when no rules are given at all', async () => {
    expect(await gatewayErr(['--targets', 'bind'])).toContain(
      `mcp-gateway: --targets bind: no --rules names a write's target arguments`,
    );
  });

  it('should say nothing when a rule names targets, or without --targets bind', async () => {
    const bound = rulesFile({ tools: { list_vms: 'resolve', stop_vm: { kind: 'write', targets: ['vm_id'] } } });
    expect(await gatewayErr(['--targets', 'bind', '--rules', bound])).not.toContain('--targets bind');
    const plain = rulesFile({ tools: { stop_vm: 'write' } });
    expect(await gatewayErr(['--rules', plain])).not.toContain('--targets bind');
  });

  it('should name, at the first tool listing, the writes whose rules bind no targets', async () => {
    const file = rulesFile({
      tools: { find_service: 'resolve', restart_service: { kind: 'write', targets: ['name'] } },
    });
    const gateway = await connect(
      cli(['mcp-gateway', '--targets', 'bind', '--rules', file, '--', ...fixtureCommand(dir)]),
      dir,
    );
    try {
      await gateway.client.listTools();
      await expect
        .poll(() => gateway.stderr())
        .toMatch(/--targets bind: the rules name no target arguments \("targets"\) of /);
      expect(gateway.stderr()).not.toMatch(/no target arguments[^\n]*restart_service/);
    } finally {
      await gateway.client.close();
    }
  }, 60_000);
});
