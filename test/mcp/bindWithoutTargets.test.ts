import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { tempDir } from './helpers.js';

/*
 * `--targets bind` checks the targets the rules name. With no rule naming any, it changes nothing:
 * the gateway says so when it starts, rather than let a user believe writes are bound.
 */

async function gatewayErr(args: string[]): Promise<string> {
  let err = '';
  // The server does not exist: the gateway stops after its start-up checks, which is all this needs.
  await main(['mcp-gateway', ...args, '--', 'assistant-safety-no-such-server'], {
    out: () => undefined,
    err: (t) => (err += `${t}\n`),
  });
  return err;
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
});
